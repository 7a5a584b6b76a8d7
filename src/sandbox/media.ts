import { reply, type Router } from "./server.js";

// A 1x1 PNG and a one-page PDF: the smallest files of each kind a sending test needs.
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082",
  "hex",
);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

const TYPES: Record<string, [string, Buffer]> = {
  png: ["image/png", PNG],
  jpg: ["image/jpeg", PNG],
  jpeg: ["image/jpeg", PNG],
  pdf: ["application/pdf", PDF],
};

/** GET `<prefix>/<name>`: a small file of the kind its extension names (png, jpg, pdf). */
export function registerMedia(router: Router, prefix: string): void {
  router.on("GET", `${prefix}/:name`, (req) => {
    const kind = TYPES[req.params.name!.split(".").pop()?.toLowerCase() ?? ""];
    if (!kind) return reply(404, { success: false, error: "not_found" });
    return reply(200, kind[1], { "content-type": kind[0] });
  });
}
