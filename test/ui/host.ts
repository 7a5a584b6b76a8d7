// A minimal MCP Apps host for the browser tests, built on ext-apps' AppBridge: it loads a view's
// HTML in a sandboxed iframe, gives it a theme, then the tool's input and result, as a real host does.
import { AppBridge, type McpUiStyles, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface Show {
  html: string;
  input: Record<string, unknown>;
  result: Record<string, unknown>;
  theme: "light" | "dark";
}

async function showView({ html, input, result, theme }: Show): Promise<void> {
  document.documentElement.style.background = theme === "dark" ? "#18181b" : "#ffffff";
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.style.cssText = "width:100%;border:0;height:200px;display:block";
  document.body.replaceChildren(frame);
  const bridge = new AppBridge(null, { name: "pancake-test-host", version: "1.0.0" }, { logging: {} }, {
    hostContext: {
      theme,
      locale: "vi-VN",
      platform: "web",
      // A host sets the variables it has; the type lists every one (ext-apps 2), unset ones are undefined.
      styles: { variables: (theme === "dark" ? { "--color-background-primary": "#18181b", "--color-text-primary": "#fafafa" } : { "--color-background-primary": "#ffffff", "--color-text-primary": "#18181b" }) as McpUiStyles },
    },
  });
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result as Parameters<AppBridge["sendToolResult"]>[0]);
}

(window as unknown as { showView: typeof showView }).showView = showView;
