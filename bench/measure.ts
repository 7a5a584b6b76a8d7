import { readFileSync } from "node:fs";

// What every figure emits, and the readings figures share.

export interface Row {
  figure: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean | null;
  detail?: string;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A process's resident memory in MB, as the kernel counts it (VmRSS). */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}
