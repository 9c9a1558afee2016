/**
 * The Ego2World rule language as text (docs/ego2world.md, "The rule language"): actions `name(arg, ...)`,
 * preconditions and goals `term = operand` / `term != operand`, effects `term := operand`,
 * `create LABEL attr=operand ...` and `destroy P`. Parsing only; lib/tasks/ego2world-play/engine.ts runs them.
 */

/** A value of the world: an object's slot, a literal, an argument. */
export type Value = string | number | boolean | null;

/** An action as written: the name and its arguments (whitespace ignored). */
export interface ParsedAction {
  name: string;
  args: string[];
}

/**
 * A term or operand:
 * - `hand`: the held object's id (or null); `here`: the agent's area;
 * - `attr`: `P.attr`, P a parameter (its argument) or an object id;
 * - `word`: a bare word, the argument when it names a parameter, else a literal.
 */
export type Operand = { kind: "hand" } | { kind: "here" } | { kind: "attr"; of: string; attr: string } | { kind: "word"; word: string };

export interface Predicate {
  left: Operand;
  op: "=" | "!=";
  right: Operand;
}

export type Effect =
  | { kind: "assign"; target: Operand; value: Operand }
  | { kind: "create"; label: string; attrs: Array<{ attr: string; value: Operand }> }
  | { kind: "destroy"; of: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const WORD = /^[A-Za-z0-9_]+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^-?\d+$/;

/** Words that are never parameters: the two terms and the literal keywords. */
export const RESERVED_WORDS = ["hand", "here", "null", "true", "false"] as const;

export function isReservedWord(word: string): boolean {
  return (RESERVED_WORDS as readonly string[]).includes(word) || INTEGER.test(word);
}

export function isWord(text: string): boolean {
  return WORD.test(text);
}

/** `pick_up( cup_01 )` -> { name: "pick_up", args: ["cup_01"] }; `wait` and `wait()` have no arguments. */
export function parseAction(text: string): Parsed<ParsedAction> {
  const compact = text.replace(/\s+/g, "");
  const match = /^([^()]*)(?:\((.*)\))?$/.exec(compact);
  const fail = (): Parsed<ParsedAction> => ({ ok: false, error: `cannot read action ${JSON.stringify(text)}: write name(arg, ...)` });
  if (!match || !NAME.test(match[1])) return fail();
  const inner = match[2];
  if (inner === undefined || inner === "") return { ok: true, value: { name: match[1], args: [] } };
  const args = inner.split(",");
  if (!args.every((arg) => WORD.test(arg))) return fail();
  return { ok: true, value: { name: match[1], args } };
}

/** The action as compared and shown: `name(a,b)`, no spaces; `name()` without arguments. */
export function formatAction(action: ParsedAction): string {
  return `${action.name}(${action.args.join(",")})`;
}

/** An action's normalised text (scoring compares these); unreadable text is only stripped of spaces. */
export function normaliseAction(text: string): string {
  const parsed = parseAction(text);
  return parsed.ok ? formatAction(parsed.value) : text.replace(/\s+/g, "");
}

export function parseOperand(text: string): Parsed<Operand> {
  const trimmed = text.trim();
  if (trimmed === "hand") return { ok: true, value: { kind: "hand" } };
  if (trimmed === "here") return { ok: true, value: { kind: "here" } };
  if (WORD.test(trimmed)) return { ok: true, value: { kind: "word", word: trimmed } };
  if (/^-\d+$/.test(trimmed)) return { ok: true, value: { kind: "word", word: trimmed } };
  const dotted = /^([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)$/.exec(trimmed);
  if (dotted) return { ok: true, value: { kind: "attr", of: dotted[1], attr: dotted[2] } };
  return { ok: false, error: `cannot read ${JSON.stringify(trimmed)}: expected hand, here, P.attr or a word` };
}

/** `x.area = here`, `hand != null`. */
export function parsePredicate(text: string): Parsed<Predicate> {
  const match = /^([^=!:]+?)\s*(!=|=)\s*([^=!:]+)$/.exec(text.trim());
  if (!match) return { ok: false, error: `cannot read ${JSON.stringify(text)}: write term = operand or term != operand` };
  const left = parseOperand(match[1]);
  if (!left.ok) return left;
  const right = parseOperand(match[3]);
  if (!right.ok) return right;
  return { ok: true, value: { left: left.value, op: match[2] as "=" | "!=", right: right.value } };
}

function isTarget(operand: Operand): boolean {
  return operand.kind === "hand" || operand.kind === "here" || operand.kind === "attr";
}

/** `x.cut := sliced`, `create bread_slice area=here cut=sliced`, `destroy x`. */
export function parseEffect(text: string): Parsed<Effect> {
  const trimmed = text.trim();
  const create = /^create\s+([A-Za-z0-9_]+)((?:\s+[A-Za-z0-9_]+\s*=\s*[A-Za-z0-9_.-]+)*)\s*$/.exec(trimmed);
  if (create) {
    const attrs: Array<{ attr: string; value: Operand }> = [];
    for (const pair of create[2].matchAll(/([A-Za-z0-9_]+)\s*=\s*([A-Za-z0-9_.-]+)/g)) {
      const value = parseOperand(pair[2]);
      if (!value.ok) return value;
      attrs.push({ attr: pair[1], value: value.value });
    }
    return { ok: true, value: { kind: "create", label: create[1], attrs } };
  }
  if (/^create\b/.test(trimmed)) return { ok: false, error: `cannot read ${JSON.stringify(trimmed)}: write create LABEL attr=operand ...` };
  const destroy = /^destroy\s+([A-Za-z0-9_]+)$/.exec(trimmed);
  if (destroy) return { ok: true, value: { kind: "destroy", of: destroy[1] } };
  if (/^destroy\b/.test(trimmed)) return { ok: false, error: `cannot read ${JSON.stringify(trimmed)}: write destroy P` };
  const assign = /^(.+?)\s*:=\s*(.+)$/.exec(trimmed);
  if (!assign) return { ok: false, error: `cannot read ${JSON.stringify(trimmed)}: write term := operand, create LABEL attr=operand ... or destroy P` };
  const target = parseOperand(assign[1]);
  if (!target.ok) return target;
  if (!isTarget(target.value)) return { ok: false, error: `cannot assign to ${JSON.stringify(assign[1].trim())}: the target is hand, here or P.attr` };
  const value = parseOperand(assign[2]);
  if (!value.ok) return value;
  return { ok: true, value: { kind: "assign", target: target.value, value: value.value } };
}

/** A bare word as a literal: null, true, false, an integer, else the string itself. */
export function literalOf(word: string): Value {
  if (word === "null") return null;
  if (word === "true") return true;
  if (word === "false") return false;
  if (INTEGER.test(word)) return Number(word);
  return word;
}

/** An operand written back with parameters replaced by their arguments (feedback lines). */
export function formatOperand(operand: Operand, args: ReadonlyMap<string, string> = new Map()): string {
  switch (operand.kind) {
    case "hand":
    case "here":
      return operand.kind;
    case "attr":
      return `${args.get(operand.of) ?? operand.of}.${operand.attr}`;
    case "word":
      return args.get(operand.word) ?? operand.word;
  }
}

export function formatPredicate(predicate: Predicate, args: ReadonlyMap<string, string> = new Map()): string {
  return `${formatOperand(predicate.left, args)} ${predicate.op} ${formatOperand(predicate.right, args)}`;
}

/** The words of an operand that may name parameters (to check rules and skills). */
export function operandWords(operand: Operand): string[] {
  if (operand.kind === "attr") return [operand.of];
  if (operand.kind === "word") return [operand.word];
  return [];
}
