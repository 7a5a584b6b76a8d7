import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } from "@modelcontextprotocol/ext-apps";
import { el } from "./dom.js";

export type Data = Record<string, unknown>;
type HostContext = ReturnType<App["getHostContext"]>;

/**
 * Starts a view: connects to the host (ext-apps App), follows its theme, and draws the tool's
 * structuredContent, the only way data reaches the view, again whenever the width changes.
 */
export function startView(name: string, render: (data: Data, width: number) => Node[]): void {
  const root = document.getElementById("root")!;
  const app = new App({ name: `pancake-${name}`, version: "1.0.0" });
  let data: Data | undefined;
  let drawnWidth = 0;
  const draw = () => {
    if (!data) return;
    drawnWidth = root.clientWidth;
    root.replaceChildren(...render(data, drawnWidth || 600));
  };
  const theme = (ctx: HostContext) => {
    if (ctx?.theme) applyDocumentTheme(ctx.theme);
    if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
    if (ctx?.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
  };
  app.ontoolresult = (result) => {
    if (result.isError || !result.structuredContent) {
      data = undefined;
      const text = result.content?.map((c: { type: string; text?: string }) => (c.type === "text" ? c.text : "")).join("\n");
      root.replaceChildren(el("p", { class: "note bad" }, text || "Không có dữ liệu để vẽ."));
      return;
    }
    data = result.structuredContent as Data;
    draw();
  };
  app.onhostcontextchanged = theme;
  // Charts are drawn at the pixel width: redraw when it changes (a rotated phone, a wider panel).
  new ResizeObserver(() => {
    if (root.clientWidth !== drawnWidth) draw();
  }).observe(root);
  void app.connect().then(() => theme(app.getHostContext()));
}
