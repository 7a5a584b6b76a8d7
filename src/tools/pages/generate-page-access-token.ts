import { z } from "zod";
import { InputError } from "../../clients/errors.js";
import { defineTool, OVERWRITE } from "../define.js";
import { pageIdInput } from "../inputs.js";

export const generatePageAccessToken = defineTool({
  name: "generate_page_access_token",
  title: "Regenerate page access token",
  description:
    "Regenerate the page access token; the old one stops working (integrations using it break). Only on explicit request.",
  toolset: "pages",
  annotations: OVERWRITE,
  input: z.object({
    page_id: pageIdInput,
    confirm: z.boolean().describe("true: user confirmed"),
  }),
  output: z.object({ page_id: z.string(), regenerated: z.boolean(), note: z.string() }),
  async handler(input, ctx) {
    if (input.confirm !== true) {
      throw new InputError("confirm", "must be true", "Ask the user to confirm that the page's current token may be invalidated.");
    }
    await ctx.messaging.generatePageAccessToken(input.page_id);
    return {
      page_id: input.page_id,
      regenerated: true,
      note: "The previous token no longer works. This server uses the new one until it restarts; other integrations need the new token from the inbox's page settings.",
    };
  },
});
