import { compileRules, goalHolds, runAction, type RuleSpec, type SkillSpec } from "@/lib/tasks/ego2world-play/engine";
import { multisetOverlap } from "@/lib/tasks/ego2world-play/metrics";
import { isReservedWord, isWord, normaliseAction, parseAction, parseEffect, parsePredicate } from "@/lib/tasks/ego2world-play/syntax";
import { cloneWorld, isObjectField, type World } from "@/lib/tasks/ego2world-play/world";

/**
 * The importer's checks of one episode beyond its JSON shape: every rule, skill, goal and action
 * can be read, names are consistent between the public part and the key, and every task's
 * reference, replayed from the initial world task after task, is accepted action by action and
 * reaches its goal. Issues carry the field path ("key.tasks[1].reference[3]") and a message naming
 * task and action.
 */

export interface EpisodeIssue {
  path: Array<string | number>;
  message: string;
}

export interface EpisodePublicShape {
  areas: Record<string, unknown>;
  startArea: string;
  tasks: Array<{ id: string }>;
  actions: Array<{ name: string; params: string[] }>;
}

export interface EpisodeKeyShape {
  world: World;
  rules: RuleSpec[];
  skills: SkillSpec[];
  tasks: Array<{ id: string; goal: string[]; keyActions: string[]; reference: string[] }>;
}

const quote = JSON.stringify;

function checkParams(params: string[], path: Array<string | number>, issues: EpisodeIssue[]): void {
  const seen = new Set<string>();
  params.forEach((param, i) => {
    if (!isWord(param)) issues.push({ path: [...path, i], message: `parameter ${quote(param)} must be a word (letters, digits, _)` });
    else if (isReservedWord(param))
      issues.push({ path: [...path, i], message: `parameter ${quote(param)} is reserved (hand, here, null, true, false and integers cannot be parameters)` });
    if (seen.has(param)) issues.push({ path: [...path, i], message: `parameter ${quote(param)} appears twice` });
    seen.add(param);
  });
}

function arityKey(name: string, arity: number): string {
  return `${name}/${arity}`;
}

export function validateEpisode(pub: EpisodePublicShape, key: EpisodeKeyShape): EpisodeIssue[] {
  const issues: EpisodeIssue[] = [];
  const areas = Object.keys(pub.areas);
  const areaSet = new Set(areas);

  // world
  if (typeof key.world.agent.area !== "string" || !areaSet.has(key.world.agent.area)) {
    issues.push({
      path: ["key", "world", "agent", "area"],
      message: `the agent's area ${quote(key.world.agent.area)} is not one of the areas (${areas.join(", ")})`,
    });
  }
  if (key.world.agent.area !== pub.startArea) {
    issues.push({
      path: ["public", "startArea"],
      message: `startArea ${quote(pub.startArea)} differs from the world's agent area ${quote(key.world.agent.area)}`,
    });
  }
  if (key.world.agent.hand !== null && (typeof key.world.agent.hand !== "string" || !Object.hasOwn(key.world.objects, key.world.agent.hand))) {
    issues.push({ path: ["key", "world", "agent", "hand"], message: `the agent holds ${quote(key.world.agent.hand)}, which is not an object of the world` });
  }
  for (const [id, object] of Object.entries(key.world.objects)) {
    if (!isWord(id)) issues.push({ path: ["key", "world", "objects", id], message: `object id ${quote(id)} must be a word (letters, digits, _)` });
    if (areaSet.has(id)) issues.push({ path: ["key", "world", "objects", id], message: `object id ${quote(id)} is also an area name` });
    for (const word of Object.keys(object.state)) {
      if (isObjectField(word))
        issues.push({
          path: ["key", "world", "objects", id, "state", word],
          message: `state word ${quote(word)} is an object field (label, area, in, on, amount); it cannot be a state word`,
        });
    }
  }
  for (const area of areas) {
    if (!isWord(area)) issues.push({ path: ["public", "areas", area], message: `area name ${quote(area)} must be a word (letters, digits, _)` });
  }

  // rules and skills
  const ruleArities = new Set<string>();
  key.rules.forEach((rule, r) => {
    const path = ["key", "rules", r];
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(rule.action))
      issues.push({ path: [...path, "action"], message: `action name ${quote(rule.action)} must be a word starting with a letter` });
    checkParams(rule.params, [...path, "params"], issues);
    rule.pre.forEach((text, i) => {
      const parsed = parsePredicate(text);
      if (!parsed.ok) issues.push({ path: [...path, "pre", i], message: `rule ${rule.action}: ${parsed.error}` });
    });
    rule.eff.forEach((text, i) => {
      const parsed = parseEffect(text);
      if (!parsed.ok) issues.push({ path: [...path, "eff", i], message: `rule ${rule.action}: ${parsed.error}` });
    });
    ruleArities.add(arityKey(rule.action, rule.params.length));
  });
  const skillArities = new Map<string, number>();
  key.skills.forEach((skill, s) => {
    const path = ["key", "skills", s];
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(skill.name))
      issues.push({ path: [...path, "name"], message: `skill name ${quote(skill.name)} must be a word starting with a letter` });
    checkParams(skill.params, [...path, "params"], issues);
    const arity = arityKey(skill.name, skill.params.length);
    if (skillArities.has(arity))
      issues.push({ path: [...path, "name"], message: `skill ${skill.name} with ${skill.params.length} parameters is defined twice` });
    else skillArities.set(arity, s);
  });
  const known = (name: string, arity: number) => ruleArities.has(arityKey(name, arity)) || skillArities.has(arityKey(name, arity));
  key.skills.forEach((skill, s) => {
    skill.steps.forEach((step, i) => {
      const parsed = parseAction(step);
      if (!parsed.ok) issues.push({ path: ["key", "skills", s, "steps", i], message: `skill ${skill.name}: ${parsed.error}` });
      else if (!known(parsed.value.name, parsed.value.args.length)) {
        issues.push({
          path: ["key", "skills", s, "steps", i],
          message: `skill ${skill.name}: step ${quote(step)} names no rule or skill ${parsed.value.name} with ${parsed.value.args.length} arguments`,
        });
      }
    });
  });
  // skills calling skills: no cycles
  const visiting = new Set<number>();
  const done = new Set<number>();
  const cyclic = (s: number): boolean => {
    if (done.has(s)) return false;
    if (visiting.has(s)) return true;
    visiting.add(s);
    for (const step of key.skills[s].steps) {
      const parsed = parseAction(step);
      const callee = parsed.ok ? skillArities.get(arityKey(parsed.value.name, parsed.value.args.length)) : undefined;
      if (callee !== undefined && cyclic(callee)) return true;
    }
    visiting.delete(s);
    done.add(s);
    return false;
  };
  key.skills.forEach((skill, s) => {
    visiting.clear();
    if (cyclic(s)) issues.push({ path: ["key", "skills", s, "steps"], message: `skill ${skill.name} calls itself (directly or through other skills)` });
  });

  if (areas.length > 1 && !known("go_to", 1)) {
    issues.push({ path: ["key", "rules"], message: "the player's area buttons play go_to(area): the key needs a go_to rule (or skill) with one parameter" });
  }

  // the palette
  pub.actions.forEach((action, i) => {
    if (!known(action.name, action.params.length)) {
      issues.push({
        path: ["public", "actions", i],
        message: `palette action ${action.name}(${action.params.join(", ")}) has no rule or skill with that name and ${action.params.length} parameters`,
      });
    }
  });

  // tasks
  if (pub.tasks.length !== key.tasks.length || pub.tasks.some((task, i) => task.id !== key.tasks[i].id)) {
    issues.push({
      path: ["key", "tasks"],
      message: `the key's task ids (${key.tasks.map((task) => task.id).join(", ")}) must be the public task ids in the same order (${pub.tasks.map((task) => task.id).join(", ")})`,
    });
  }
  const taskIds = new Set<string>();
  key.tasks.forEach((task, t) => {
    if (taskIds.has(task.id)) issues.push({ path: ["key", "tasks", t, "id"], message: `task id ${quote(task.id)} appears twice` });
    taskIds.add(task.id);
    task.goal.forEach((goal, g) => {
      const parsed = parsePredicate(goal);
      if (!parsed.ok) issues.push({ path: ["key", "tasks", t, "goal", g], message: `task ${quote(task.id)}: ${parsed.error}` });
    });
    for (const [field, list] of [
      ["keyActions", task.keyActions],
      ["reference", task.reference],
    ] as const) {
      list.forEach((action, a) => {
        const parsed = parseAction(action);
        if (!parsed.ok) issues.push({ path: ["key", "tasks", t, field, a], message: `task ${quote(task.id)}: ${parsed.error}` });
      });
    }
  });
  if (issues.length > 0) return issues;

  // the reference, replayed from the initial world, task after task
  const engine = compileRules({ rules: key.rules, skills: key.skills, areas });
  let world = cloneWorld(key.world);
  for (const [t, task] of key.tasks.entries()) {
    const acceptedPrimitives: string[] = [];
    for (const [a, action] of task.reference.entries()) {
      const outcome = runAction(engine, world, action);
      if (!outcome.accepted) {
        issues.push({
          path: ["key", "tasks", t, "reference", a],
          message: `task ${quote(task.id)}, action ${a + 1} ${quote(action)}: the reference action is refused (${outcome.feedback})`,
        });
        return issues;
      }
      world = outcome.world;
      acceptedPrimitives.push(...outcome.primitives.map((primitive) => primitive.text));
    }
    task.goal.forEach((goal, g) => {
      if (!goalHolds(goal, world)) {
        issues.push({
          path: ["key", "tasks", t, "goal", g],
          message: `task ${quote(task.id)}: goal ${quote(goal)} does not hold after the task's reference (${task.reference.length} actions)`,
        });
      }
    });
    const keyActions = task.keyActions.map(normaliseAction);
    if (multisetOverlap(acceptedPrimitives, keyActions) < keyActions.length) {
      const missing = keyActions.filter((action) => !acceptedPrimitives.includes(action));
      issues.push({
        path: ["key", "tasks", t, "keyActions"],
        message: `task ${quote(task.id)}: key actions must be primitives the reference runs (skills expanded); not matched: ${missing.length > 0 ? missing.join(", ") : "a repeated key action"}`,
      });
    }
    if (issues.length > 0) return issues;
  }
  return issues;
}
