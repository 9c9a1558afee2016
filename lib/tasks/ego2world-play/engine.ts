import {
  formatAction,
  formatPredicate,
  literalOf,
  parseAction,
  parseEffect,
  parsePredicate,
  type Effect,
  type Operand,
  type ParsedAction,
  type Predicate,
  type Value,
} from "@/lib/tasks/ego2world-play/syntax";
import { cloneWorld, freshId, isObjectField, isPresent, readAttr, sameValue, type World, type WorldObject } from "@/lib/tasks/ego2world-play/world";

/**
 * The Ego2World simulator (docs/ego2world.md, "The rule language"): pure functions over a world. One
 * action is a skill (matched by name and arity; skills win over rules), run atomically, or a
 * primitive, which runs the first rule of its name and arity whose preconditions all hold.
 */

export interface RuleSpec {
  action: string;
  params: string[];
  pre: string[];
  eff: string[];
}

export interface SkillSpec {
  name: string;
  params: string[];
  steps: string[];
}

export interface EpisodeRules {
  rules: RuleSpec[];
  skills: SkillSpec[];
  /** the area names (the public `areas`): arguments may name them */
  areas: string[];
}

interface CompiledRule {
  action: string;
  params: string[];
  pre: Predicate[];
  eff: Effect[];
}

/** Rules and skills parsed once. Built by `compileRules`, which throws on text it cannot read (the importer checks first). */
export interface Engine {
  rules: CompiledRule[];
  skills: SkillSpec[];
  areas: Set<string>;
}

/** One primitive run, in order, skills expanded (TCR counts the accepted ones). */
export interface PrimitiveRun {
  /** normalised action text */
  text: string;
  accepted: boolean;
}

export interface ActionOutcome {
  world: World;
  accepted: boolean;
  /** empty when accepted; else why not, e.g. "cup_01.area = here", "unknown: cup_09", "unknown action" */
  feedback: string;
  /** the primitives run (a failed skill: those tried, none accepted: the world is as before) */
  primitives: PrimitiveRun[];
}

const MAX_SKILL_DEPTH = 16;

export function compileRules(spec: EpisodeRules): Engine {
  const rules = spec.rules.map((rule, r) => {
    const pre = rule.pre.map((text, i) => {
      const parsed = parsePredicate(text);
      if (!parsed.ok) throw new Error(`rules[${r}].pre[${i}]: ${parsed.error}`);
      return parsed.value;
    });
    const eff = rule.eff.map((text, i) => {
      const parsed = parseEffect(text);
      if (!parsed.ok) throw new Error(`rules[${r}].eff[${i}]: ${parsed.error}`);
      return parsed.value;
    });
    return { action: rule.action, params: rule.params, pre, eff };
  });
  return { rules, skills: spec.skills, areas: new Set(spec.areas) };
}

const ABSENT_READ = Symbol("absent");
type Read = Value | typeof ABSENT_READ;

interface Scope {
  world: World;
  args: ReadonlyMap<string, string>;
}

/** The id an object reference names: the argument of a parameter, else the word itself. */
function idOf(word: string, args: ReadonlyMap<string, string>): string {
  return args.get(word) ?? word;
}

function readOperand(operand: Operand, { world, args }: Scope): Read {
  switch (operand.kind) {
    case "hand":
      return world.agent.hand;
    case "here":
      return world.agent.area;
    case "attr": {
      const value = readAttr(world, idOf(operand.of, args), operand.attr);
      return value === undefined ? ABSENT_READ : value;
    }
    case "word":
      return args.has(operand.word) ? args.get(operand.word)! : literalOf(operand.word);
  }
}

/** A predicate on a world; false when it reads an absent object. */
export function holds(predicate: Predicate, scope: Scope): boolean {
  const left = readOperand(predicate.left, scope);
  const right = readOperand(predicate.right, scope);
  if (left === ABSENT_READ || right === ABSENT_READ) return false;
  return predicate.op === "=" ? sameValue(left, right) : !sameValue(left, right);
}

/** A goal (ids, no parameters) on a world; false when it cannot be read or reads an absent object. */
export function goalHolds(goal: string, world: World): boolean {
  const parsed = parsePredicate(goal);
  return parsed.ok && holds(parsed.value, { world, args: new Map() });
}

function assign(next: World, target: Operand, value: Value, args: ReadonlyMap<string, string>): void {
  if (target.kind === "hand") next.agent.hand = value;
  else if (target.kind === "here") next.agent.area = value;
  else if (target.kind === "attr") {
    const id = idOf(target.of, args);
    if (!isPresent(next, id)) return;
    const object = next.objects[id];
    if (isObjectField(target.attr)) object[target.attr] = value;
    else object.state[target.attr] = value;
  }
}

/** Effects in order on a copy; every operand is read from `before`, the world as it was before the rule fired. */
function applyEffects(before: World, effects: Effect[], args: ReadonlyMap<string, string>): World {
  const next = cloneWorld(before);
  const scope: Scope = { world: before, args };
  const valueOf = (operand: Operand): Value => {
    const read = readOperand(operand, scope);
    return read === ABSENT_READ ? null : read;
  };
  for (const effect of effects) {
    if (effect.kind === "assign") assign(next, effect.target, valueOf(effect.value), args);
    else if (effect.kind === "create") {
      const id = freshId(next, effect.label);
      const object: WorldObject = { label: effect.label, area: null, in: null, on: null, amount: 0, state: {} };
      for (const { attr, value } of effect.attrs) {
        if (isObjectField(attr)) object[attr] = valueOf(value);
        else object.state[attr] = valueOf(value);
      }
      next.objects[id] = object;
    } else {
      const id = idOf(effect.of, args);
      if (!isPresent(next, id)) continue;
      delete next.objects[id];
      next.gone = [...(next.gone ?? []), id];
      for (const object of Object.values(next.objects)) {
        if (object.in === id) object.in = null;
        if (object.on === id) object.on = null;
      }
      if (next.agent.hand === id) next.agent.hand = null;
    }
  }
  return next;
}

function bind(params: readonly string[], args: readonly string[]): Map<string, string> {
  return new Map(params.map((param, i) => [param, args[i]]));
}

export function findSkill(engine: Engine, action: ParsedAction): SkillSpec | undefined {
  return engine.skills.find((skill) => skill.name === action.name && skill.params.length === action.args.length);
}

/** A skill's steps with its parameters replaced by the arguments (as texts; unreadable steps kept as written). */
export function skillSteps(skill: SkillSpec, args: readonly string[]): string[] {
  const binding = bind(skill.params, args);
  return skill.steps.map((step) => {
    const parsed = parseAction(step);
    if (!parsed.ok) return step;
    return formatAction({ name: parsed.value.name, args: parsed.value.args.map((arg) => binding.get(arg) ?? arg) });
  });
}

function refuse(world: World, feedback: string, primitives: PrimitiveRun[] = []): ActionOutcome {
  return { world, accepted: false, feedback, primitives };
}

function run(engine: Engine, world: World, text: string, depth: number): ActionOutcome {
  const parsed = parseAction(text);
  if (!parsed.ok) return refuse(world, parsed.error);
  const action = parsed.value;
  const normalised = formatAction(action);
  const unknownArg = action.args.find((arg) => !isPresent(world, arg) && !engine.areas.has(arg));
  const skill = findSkill(engine, action);
  if (unknownArg !== undefined) return refuse(world, `unknown: ${unknownArg}`, skill ? [] : [{ text: normalised, accepted: false }]);
  if (skill) {
    if (depth >= MAX_SKILL_DEPTH) return refuse(world, "skills nested too deep");
    let current = world;
    const primitives: PrimitiveRun[] = [];
    for (const step of skillSteps(skill, action.args)) {
      const outcome = run(engine, current, step, depth + 1);
      primitives.push(...outcome.primitives);
      if (!outcome.accepted) {
        return refuse(
          world,
          `${normaliseStep(step)}: ${outcome.feedback}`,
          primitives.map((primitive) => ({ ...primitive, accepted: false })),
        );
      }
      current = outcome.world;
    }
    return { world: current, accepted: true, feedback: "", primitives };
  }
  const candidates = engine.rules.filter((rule) => rule.action === action.name && rule.params.length === action.args.length);
  if (candidates.length === 0) return refuse(world, "unknown action", [{ text: normalised, accepted: false }]);
  let firstViolation: string | null = null;
  for (const rule of candidates) {
    const args = bind(rule.params, action.args);
    const violated = rule.pre.find((predicate) => !holds(predicate, { world, args }));
    if (violated === undefined) {
      return { world: applyEffects(world, rule.eff, args), accepted: true, feedback: "", primitives: [{ text: normalised, accepted: true }] };
    }
    firstViolation ??= formatPredicate(violated, args);
  }
  return refuse(world, firstViolation!, [{ text: normalised, accepted: false }]);
}

function normaliseStep(step: string): string {
  const parsed = parseAction(step);
  return parsed.ok ? formatAction(parsed.value) : step;
}

/** Runs one action (a skill or a primitive) on a world; the world given is never changed. */
export function runAction(engine: Engine, world: World, text: string): ActionOutcome {
  return run(engine, world, text, 0);
}

/**
 * The action names of an action with skills expanded into their steps (recursively), whether or
 * not they would be accepted: F1 compares these. Unreadable text counts as one name (itself).
 */
export function expandNames(engine: Engine, text: string, depth = 0): string[] {
  const parsed = parseAction(text);
  if (!parsed.ok) return [text.replace(/\s+/g, "")];
  const skill = findSkill(engine, parsed.value);
  if (!skill || depth >= MAX_SKILL_DEPTH) return [parsed.value.name];
  return skillSteps(skill, parsed.value.args).flatMap((step) => expandNames(engine, step, depth + 1));
}
