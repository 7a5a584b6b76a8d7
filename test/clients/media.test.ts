import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchMedia, isPrivateAddress, MAX_MEDIA_BYTES, multipartFile } from "../../src/clients/media.js";

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.20.30.40", true],
    ["172.16.5.1", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["8.8.8.8", false],
    ["2606:4700::1111", false],
    ["not-an-ip", true],
  ])("%s -> %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe("fetchMedia", () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/moved.png") {
        res.writeHead(302, { location: "http://169.254.169.254/" }).end();
      } else if (req.url === "/trickle.png") {
        // Headers at once, then a byte every 100 ms: each chunk is quick, the whole is not.
        res.writeHead(200, { "content-type": "image/png" });
        const timer = setInterval(() => res.write(Buffer.from([0])), 100);
        res.on("close", () => clearInterval(timer));
      } else if (req.url === "/huge.png") {
        res.writeHead(200, { "content-type": "image/png", "content-length": String(MAX_MEDIA_BYTES + 1) }).end();
      } else {
        res.writeHead(200, { "content-type": "image/png; charset=binary" }).end(Buffer.from([1, 2, 3]));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const options = () => ({ trustedOrigin: origin, timeoutMs: 5_000 });

  it("reads a file from the trusted upstream origin, with its name and type", async () => {
    const media = await fetchMedia("content_url", `${origin}/photos/%C3%A1o%20thun.png`, options());
    expect(media).toEqual({ bytes: Buffer.from([1, 2, 3]), name: "_o thun.png", type: "image/png" });
  });

  it("does not follow redirects and refuses files over the limit", async () => {
    await expect(fetchMedia("content_url", `${origin}/moved.png`, options())).rejects.toThrow(/HTTP 302 \(a redirect, not followed\)/);
    await expect(fetchMedia("content_url", `${origin}/huge.png`, options())).rejects.toThrow(/over the/);
  });

  it("holds the whole download to its timeout, however steadily the server trickles", async () => {
    const started = Date.now();
    await expect(fetchMedia("content_url", `${origin}/trickle.png`, { trustedOrigin: origin, timeoutMs: 400 })).rejects.toThrow(/no answer in time \(over 400 ms\)/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("stops when the call is cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    await expect(fetchMedia("content_url", `${origin}/trickle.png`, { trustedOrigin: origin, timeoutMs: 30_000, signal: controller.signal })).rejects.toThrow(/cancelled by the client/);
  });

  it("keeps a file name with a stray % as it came", async () => {
    const media = await fetchMedia("content_url", `${origin}/photos/50%off.png`, options());
    expect(media.name).toBe("50_off.png");
  });

  it("refuses names that resolve to a private address, checked on the connection", async () => {
    await expect(fetchMedia("content_url", "https://localhost/a.png", options())).rejects.toThrow(/private network address/);
  });

  it("builds a one-file multipart body", () => {
    const { body, contentType } = multipartFile("file", { bytes: Buffer.from("xyz"), name: 'a"b.png', type: "image/png" });
    const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
    expect(Buffer.from(body).toString()).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ab.png"\r\nContent-Type: image/png\r\n\r\nxyz\r\n--${boundary}--\r\n`,
    );
  });
});
