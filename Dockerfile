# syntax=docker/dockerfile:1
# pancake-mcp over Streamable HTTP, for a team sharing one server.
#
#   docker build -t pancake-mcp .
#   docker run --rm -p 3000:3000 -e PANCAKE_MCP_TOKEN=<at least 16 chars> \
#     -e PANCAKE_ACCESS_TOKEN=... -e PANCAKE_POS_API_KEY=... pancake-mcp
#
# Clients connect to http://HOST:3000/mcp with "Authorization: Bearer <PANCAKE_MCP_TOKEN>"; the
# server refuses to start without the token, since it listens on every interface. Add the names
# clients reach it by (HOST, or HOST:PORT when the published port differs) to
# PANCAKE_MCP_ALLOWED_HOSTS. Put TLS in front of it (a reverse proxy) when it leaves the machine.

# Build: the one-file bundle, from a clean install of the locked dependencies.
FROM node:24-slim AS build
WORKDIR /src
COPY package.json package-lock.json LICENSE ./
# The prepare script would build before the sources are here; the build step below does it.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts ./scripts
COPY src ./src
RUN node scripts/build.mjs

# Run: the bundle alone (no node_modules), as the image's unprivileged user.
FROM node:24-slim
ENV NODE_ENV=production \
    PANCAKE_MCP_ALLOWED_HOSTS=localhost,127.0.0.1
WORKDIR /app
# package.json says the bundle is ES modules; LICENSE and the notices travel with the code.
COPY --from=build /src/package.json /src/LICENSE ./
COPY --from=build /src/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "dist/cli.js", "--http", "--host", "0.0.0.0", "--port", "3000"]
