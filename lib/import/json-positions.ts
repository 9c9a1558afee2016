/**
 * Where the entries of a JSON document start, as line numbers an editor shows: a release or a
 * model-output file that is one JSON value (OpenEQA's list, EgoSchema's object) is parsed with
 * JSON.parse, which keeps no positions, so an error about its entry N names the line it starts on
 * from this scan. Pure; one pass over the text, no allocation per character.
 */

/** The start line of each entry of the top-level array or object (an object's entries are its members, at their keys), with the start lines of each entry's own entries. */
export interface EntryLines {
  line: number;
  children: number[];
}

/**
 * The start lines (1-based) of the top-level value's entries and of their entries, in order; []
 * when the top-level value is not an array or an object. The text need not be valid JSON past the
 * point it is read to (a scan of what JSON.parse accepted is exact).
 */
export function jsonEntryLines(text: string): EntryLines[] {
  const entries: EntryLines[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  // a value or a key may start here: just after "[", "{" or "," at depth 1 or 2
  let expectingAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
      continue;
    }
    // whitespace does not start an entry
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) continue;
    if (expectingAt !== 0 && c !== 0x5d && c !== 0x7d) {
      if (expectingAt === 1) entries.push({ line, children: [] });
      else if (entries.length > 0) entries[entries.length - 1].children.push(line);
      expectingAt = 0;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth <= 2) expectingAt = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      expectingAt = 0;
    } else if (c === 0x2c && depth <= 2) expectingAt = depth;
    if (depth === 0 && i > 0 && (c === 0x5d || c === 0x7d)) break;
  }
  return entries;
}

/** "entry 3 (line 12)": entry N is 1-based; the line is left out when it is unknown. */
export function entryPlace(entries: readonly EntryLines[], index: number, childIndex?: number): string {
  const top = entries[index];
  if (childIndex === undefined) return top ? `entry ${index + 1} (line ${top.line})` : `entry ${index + 1}`;
  const line = top?.children[childIndex];
  return line !== undefined ? `entry ${index + 1}.${childIndex + 1} (line ${line})` : `entry ${index + 1}.${childIndex + 1}`;
}
