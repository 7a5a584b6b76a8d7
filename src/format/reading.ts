import type { ReadState } from "../shop-index/row-index.js";
import { toIsoInZone } from "./time.js";

// An answer counted from a read that is not done yet (src/shop-index/row-index.ts): how far it got
// and when to ask again, in figures for the assistant and in words it can pass on to the owner.

/**
 * When to ask again: a little before the read's own estimate, since a call asked while the read
 * is ending waits for it (within its budget) and answers the moment it is done, where one asked
 * late only waits. At least a few seconds; a minute while the pace is not known yet.
 */
const EARLY = 0.9;
const MIN_S = 3;
const UNKNOWN_S = 60;

/** How far one read has got, as an answer shows it. */
export interface ReadingOut {
  read: number;
  of_about?: number;
  back_to?: string;
  ask_again_in_s?: number;
  stopped?: string;
}

export function readingOut(state: ReadState, timeZone: string): ReadingOut {
  return {
    read: state.read,
    of_about: state.expected,
    back_to: state.backTo === undefined ? undefined : toIsoInZone(new Date(state.backTo * 1000), timeZone),
    ask_again_in_s: state.failed ? undefined : askAgainIn(state),
    stopped: state.failed,
  };
}

export const askAgainIn = (state: ReadState): number => Math.max(MIN_S, Math.ceil((state.etaSeconds ?? UNKNOWN_S) * EARLY));

/**
 * One sentence on a read under way (no closing stop: answers join their notes): `what` names what
 * is read ("the conversations of page X"). Its figures count what was read so far: every one is
 * real, and the full count is at least that.
 */
export function readingNote(what: string, state: ReadState, timeZone: string): string {
  const out = readingOut(state, timeZone);
  const of = out.of_about === undefined ? "" : ` of about ${out.of_about}`;
  const back = out.back_to === undefined ? "" : `, all of those updated since ${out.back_to}`;
  const then = state.failed
    ? `the read stopped (${state.failed}); asking again goes on from where it got`
    : `the read goes on in the background: ask again in about ${out.ask_again_in_s} s for the exact figures`;
  return `Still reading ${what} into the shop index: ${out.read}${of} so far${back}; these figures count only what was read, so the true ones are at least as high; ${then}`;
}
