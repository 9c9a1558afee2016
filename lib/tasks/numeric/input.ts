/**
 * What a person types in the numeric box, read as a number (browser-safe: the task UI and tests use
 * it). Digits with an optional sign, decimal point and exponent; a comma is refused with a hint
 * rather than guessed (1,5 and 1,500 read differently in different places).
 */

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/u;
export const NUMERIC_ABS_MAX = 1e12;

export type NumberInput = { value: number } | { problem: string };

export function readNumberInput(text: string): NumberInput {
  const trimmed = text.trim();
  if (trimmed === "") return { problem: "Type a number" };
  if (trimmed.includes(",")) return { problem: "Use a point for decimals, no commas" };
  if (!NUMBER.test(trimmed)) return { problem: "Not a number" };
  const value = Number(trimmed);
  if (!Number.isFinite(value) || Math.abs(value) > NUMERIC_ABS_MAX) return { problem: "Too large" };
  return { value };
}
