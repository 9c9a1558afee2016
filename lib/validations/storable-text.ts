/**
 * PostgreSQL cannot store every JavaScript string: jsonb refuses the escape \u0000 and unpaired
 * UTF-16 surrogates ("\udfff"), and text columns refuse NUL. JSON.parse accepts both, so input is
 * checked here first and refused with the place, instead of failing in the database.
 */

const NUL = "\u0000";
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string for the database, or null when it can be stored. */
export function unstorableReason(text: string): string | null {
  if (text.includes(NUL)) return "contains the NUL character (\\u0000), which cannot be stored";
  if (UNPAIRED_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate (not valid Unicode text)";
  return null;
}

/**
 * The first string or object key in a JSON value that cannot be stored, with its path
 * (iterative, so deep nesting cannot overflow the stack); null when everything can be.
 */
export function findUnstorableText(value: unknown): { path: Array<string | number>; reason: string } | null {
  // each entry points to its parent, so the path is built only for the string that is refused
  interface Step {
    value: unknown;
    key: string | number | null;
    parent: Step | null;
  }
  const pathOf = (step: Step | null, last?: string): Array<string | number> => {
    const path: Array<string | number> = last === undefined ? [] : [last];
    for (let at = step; at && at.key !== null; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Step[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const current = step.value;
    if (typeof current === "string") {
      const reason = unstorableReason(current);
      if (reason) return { path: pathOf(step), reason };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], key: index, parent: step });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index];
        const keyReason = unstorableReason(key);
        if (keyReason) return { path: pathOf(step, key), reason: `has a key that ${keyReason}` };
        stack.push({ value: child, key, parent: step });
      }
    }
  }
  return null;
}

/** ["public", "candidates", 2] -> "public.candidates[2]" */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? String(part) : `.${String(part)}`;
  }
  return text;
}
