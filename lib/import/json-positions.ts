/**
 * Where the entries of a JSON document start, as line numbers an editor shows: a release or a
 * model-output file that is one JSON value (OpenEQA's list, EgoSchema's object) is parsed with
 * JSON.parse, which keeps no positions, so an error about its entry N names the line it starts on
 * from this scan. Pure; one pass over the text.
 */

/** One entry of an array or an object (an object's entries are its members, at their keys): its start line and its own entries'. */
export interface EntryLines {
  line: number;
  children: EntryLines[];
}

/**
 * The entries of the top-level value, each with its entries, `maxDepth` levels deep (1: the top
 * level's entries only); [] when the top-level value is not an array or an object. Lines are
 * 1-based. The text need not be valid JSON past what is read (a scan of what JSON.parse accepted
 * is exact).
 */
export function jsonEntryLines(text: string, maxDepth = 3): EntryLines[] {
  const root: EntryLines = { line: 0, children: [] };
  // the open containers: stack[d] is the entry whose children are being read at depth d + 1
  const stack: EntryLines[] = [root];
  let line = 1;
  let inString = false;
  let escaped = false;
  // an entry may start at the next token: just after "[", "{" or ","
  let expecting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) continue;
    const depth = stack.length - 1;
    let started: EntryLines | null = null;
    if (expecting && c !== 0x5d && c !== 0x7d) {
      started = { line, children: [] };
      if (depth <= maxDepth) stack[depth].children.push(started);
      expecting = false;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      // the container's entries belong to the entry it is the value of (a member's value, or an array's element itself)
      stack.push(depth === 0 ? root : (started ?? lastEntry(stack[depth]) ?? { line, children: [] }));
      expecting = true;
    } else if (c === 0x5d || c === 0x7d) {
      stack.pop();
      expecting = false;
      if (stack.length === 0) break;
    } else if (c === 0x2c) expecting = true;
  }
  return root.children;
}

function lastEntry(entry: EntryLines): EntryLines | undefined {
  return entry.children[entry.children.length - 1];
}

/** The start line of the entry at `path` (0-based indices, outermost first), or undefined. */
export function lineAt(entries: readonly EntryLines[], path: readonly number[]): number | undefined {
  let level: readonly EntryLines[] = entries;
  let found: EntryLines | undefined;
  for (const index of path) {
    found = level[index];
    if (!found) return undefined;
    level = found.children;
  }
  return found?.line;
}

/** "entry 3 (line 12)", "entry 1.2 (line 3)": 1-based entries; the line is left out when it is unknown. */
export function entryPlace(entries: readonly EntryLines[], path: readonly number[]): string {
  const line = lineAt(entries, path);
  const name = `entry ${path.map((index) => index + 1).join(".")}`;
  return line !== undefined ? `${name} (line ${line})` : name;
}
