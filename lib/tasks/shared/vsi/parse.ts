/**
 * VSI-Bench's answer reading (vision-x-nyu/thinking-in-space, lmms_eval/tasks/vsibench/utils.py),
 * used by the choice and numeric kinds for model outputs: `fuzzy_matching(pred)` keeps the text
 * before the first space with trailing dots removed, `to_float` is Python's float() (None when it
 * raises). Pure functions.
 */

/** `pred.split(' ')[0].rstrip('.').strip()` */
export function fuzzyMatching(pred: string): string {
  return pred.split(" ")[0].replace(/\.+$/u, "").trim();
}

const decimal = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/u;
const special = /^([+-]?)(inf|infinity|nan)$/iu;

/**
 * Python's float(text): surrounding whitespace ignored, underscores between digits, "inf",
 * "infinity" and "nan" in any case with a sign; null where Python raises.
 */
export function pythonFloat(text: string): number | null {
  const trimmed = text.trim();
  const named = special.exec(trimmed);
  if (named) return named[2].toLowerCase() === "nan" ? Number.NaN : named[1] === "-" ? -Infinity : Infinity;
  if (!decimal.test(trimmed)) return null;
  return Number(trimmed.replace(/_/gu, ""));
}
