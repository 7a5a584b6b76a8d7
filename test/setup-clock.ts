// The sandbox builds its data around "now" and tests name calendar days in it, so every test
// process starts its clock at the same instant, and so does every server it spawns (through
// NODE_OPTIONS): a run on any later day sees the same shop. See test/clock.mjs.
const START = Date.parse("2026-11-22T07:30:00Z");
const clock = new URL("./clock.mjs", import.meta.url).href;
process.env.TEST_CLOCK_OFFSET_MS = String(START - Date.now());
if (!process.env.NODE_OPTIONS?.includes(clock)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import=${clock}`.trim();
await import(clock);
