import { editDistance } from "./edit-distance.js";
import { fold } from "./fold.js";

/**
 * Matching what a user calls a page, a staff member or a customer against the names the
 * upstream holds. People say "Mây Kids" for "Mây Kids - Đồ trẻ em", "Minh" for "Trần Minh Khoa"
 * and type without accents, so names are compared as folded words.
 */

/** Folded words: "Mây Kids - Đồ trẻ em" -> ["may", "kids", "do", "tre", "em"]. */
export function nameWords(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Whether `part` occurs in `whole` as a run of consecutive words. */
function containsRun(whole: readonly string[], part: readonly string[]): boolean {
  for (let i = 0; i + part.length <= whole.length; i++) {
    if (part.every((w, j) => whole[i + j] === w)) return true;
  }
  return false;
}

/** Whether `glued` is some run of consecutive words written together ("maykids" in may|kids|do). */
function containsGluedRun(whole: readonly string[], glued: string): boolean {
  for (let i = 0; i < whole.length; i++) {
    let run = "";
    for (let j = i; j < whole.length && run.length < glued.length; j++) run += whole[j];
    if (run === glued) return true;
  }
  return false;
}

/**
 * How well a name matches what was typed: 3 the same words ("thoi trang may"), 2 the typed words
 * in a row inside it ("kids", "may kids"), 1 whole words of it written together or apart
 * ("maykids", "thoitrangmay") or its initials ("ghtk"), 0 not at all. Never part of a word: "Hân" is not "Hằng".
 */
export function nameScore(name: string | undefined, typed: string): number {
  const want = nameWords(typed);
  if (!name || want.length === 0) return 0;
  const have = nameWords(name);
  if (have.join(" ") === want.join(" ")) return 3;
  if (containsRun(have, want)) return 2;
  if (containsGluedRun(have, want.join(""))) return 1;
  // Initials, as carriers are called: "GHTK" for Giao Hàng Tiết Kiệm, "GHN" for Giao Hàng Nhanh.
  return want.length === 1 && want[0]!.length >= 3 && have.length === want[0]!.length && have.map((w) => w[0]).join("") === want[0] ? 1 : 0;
}

/** The items whose name matches best (all of them when several tie); none when nothing matches. */
export function bestMatches<T>(items: readonly T[], typed: string, nameOf: (item: T) => string | undefined): T[] {
  let best = 0;
  let found: T[] = [];
  for (const item of items) {
    const score = nameScore(nameOf(item), typed);
    if (score > best) [best, found] = [score, [item]];
    else if (score === best && score > 0) found.push(item);
  }
  return found;
}

/** Vietnamese forms of address people put before a name ("chị Lan", "a Tuấn"). */
const ADDRESS = new Set(["anh", "chi", "em", "co", "chu", "bac", "ban", "ong", "ba", "a", "c", "e", "mr", "mrs", "ms", "miss"]);

/** What was typed without a leading form of address, or undefined when it has none. */
export function withoutAddress(typed: string): string | undefined {
  const words = nameWords(typed);
  return words.length > 1 && ADDRESS.has(words[0]!) ? words.slice(1).join(" ") : undefined;
}

/**
 * The one item whose name is a typo away from what was typed ("Tran Minh Khao" for "Trần Minh
 * Khoa"): a few letters off, about one in five, accents and spacing aside. For an error's "did you
 * mean"; never used to resolve a value by itself.
 */
export function nearestName<T>(items: readonly T[], typed: string, nameOf: (item: T) => string | undefined): T | undefined {
  const typedWords = nameWords(typed);
  const want = typedWords.join(" ");
  if (want.length < 3) return undefined;
  let best: { item: T; d: number } | undefined;
  let tie = false;
  for (const item of items) {
    const name = nameOf(item);
    if (!name) continue;
    // The whole name, or its first words as many as typed ("Mây Kidz" for "Mây Kids - Đồ trẻ em").
    const words = nameWords(name);
    const d = Math.min(editDistance(want, words.join(" ")), editDistance(want, words.slice(0, typedWords.length).join(" ")));
    if (d > Math.max(1, Math.floor(want.length / 5))) continue;
    if (!best || d < best.d) [best, tie] = [{ item, d }, false];
    else if (d === best.d) tie = true;
  }
  return tie ? undefined : best?.item;
}

/** How a name differs from what was typed, when it is near: letters off, words reordered, accents, words not typed. */
export interface Nearness {
  /** Letters to change, accents and case aside. */
  letters: number;
  reordered: boolean;
  /** Same letters, other accents typed (or accents are all that differs). */
  accents: boolean;
  /** Words of the name that were not typed (a middle name left out). */
  untyped: number;
}

/** Words as written, lowercased, beside their folded form: accents are told apart from letters. */
const rawWords = (text: string) => text.normalize("NFC").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * How near a name is to what was typed, or undefined when it is not: every typed word must meet a
 * word of the name (each at most one word), a few letters off at most, about one in five, accents
 * and case aside. For "did you mean" suggestions: never a match by itself.
 */
export function nearness(name: string, typed: string): Nearness | undefined {
  const want = rawWords(typed);
  const have = rawWords(name);
  if (want.length === 0 || have.length < want.length) return undefined;
  const [wantFolded, haveFolded] = [want.map(fold), have.map(fold)];
  const used = new Set<number>();
  const at: number[] = [];
  let letters = 0;
  // Accents typed otherwise count; none typed is how people write, unless nothing else differs.
  let accentsTyped = false;
  let accentsOnly = false;
  // Longest typed words first: they are the surest to find their own word.
  for (const i of want.map((_, i) => i).sort((a, b) => wantFolded[b]!.length - wantFolded[a]!.length)) {
    let best: { j: number; d: number } | undefined;
    for (const [j, word] of haveFolded.entries()) {
      if (used.has(j)) continue;
      const d = editDistance(wantFolded[i]!, word);
      if (!best || d < best.d) best = { j, d };
    }
    if (!best || best.d > Math.max(1, Math.floor(wantFolded[i]!.length / 4))) return undefined;
    used.add(best.j);
    at[i] = best.j;
    letters += best.d;
    if (best.d === 0 && want[i] !== have[best.j]) {
      accentsOnly = true;
      if (want[i] !== wantFolded[i]) accentsTyped = true;
    }
  }
  if (letters > Math.max(1, Math.floor(wantFolded.join("").length / 5))) return undefined;
  const reordered = at.some((j, i) => i > 0 && j < at[i - 1]!);
  const untyped = have.length - want.length;
  return { letters, reordered, accents: accentsTyped || (accentsOnly && !letters && !reordered && !untyped), untyped };
}

/** The nearness in words: "word order, 1 letter off". */
export function nearnessText(n: Nearness): string {
  return [
    n.reordered ? "word order" : "",
    n.letters ? `${n.letters} letter${n.letters > 1 ? "s" : ""} off` : "",
    n.accents ? "accents" : "",
    n.untyped ? `${n.untyped} more word${n.untyped > 1 ? "s" : ""}` : "",
  ]
    .filter(Boolean)
    .join(", ");
}
