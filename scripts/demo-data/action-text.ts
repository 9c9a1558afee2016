/**
 * ENACT-style action text from a change set ("+Open(fridge)" -> "The fridge changes to be open.").
 *
 * Mimics the released prompts (../shared/data/enact/QA/enact_ordering_sample.jsonl): one
 * sentence per change, "The robot r1 is no longer using the right gripper to grasp the fridge.",
 * "The apple becomes on top of and touching the plate.", "The apple now becomes the half apple.".
 * The verb variant of a sentence is a fixed function of its change, so equal change sets always
 * read the same (and different ones differ).
 */
import { FOODS, SLICED_FORM, parseFact, type FoodId } from "@/scripts/demo-data/kitchen-world";

const NAMES: Record<string, string> = {
  counter: "countertop",
  half_apple: "half apple",
  half_bread: "half bread",
  diced_cabbage: "diced cabbage",
};

/** Display name of an entity; sliced foods go by their sliced form once `sliced` says so. */
export function entityName(id: string, sliced: readonly string[] = []): string {
  if ((FOODS as readonly string[]).includes(id) && sliced.includes(id)) return entityName(SLICED_FORM[id as FoodId]);
  return NAMES[id] ?? id.replace(/_/g, " ");
}

const BECOMES = ["becomes", "now becomes", "changes to be", "transitions to be"];
const NO_LONGER = ["is no longer", "stopped being"];

/** Sentence order inside an action: additions first, then removals, each by predicate class. */
const PREDICATE_ORDER = ["Transition", "Open", "ToggledOn", "Cooked", "Inside", "OnTop", "Under", "Contains", "Covered", "RightGrasping", "LeftGrasping"];

function variant<T>(options: readonly T[], key: string): T {
  let h = 7;
  for (const ch of key) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return options[h % options.length];
}

/** One sentence for one change. `sliced`: objects that are sliced in the step's result (for names). */
export function describeChange(change: string, sliced: readonly string[] = []): string {
  const sign = change[0];
  if (sign !== "+" && sign !== "-") throw new Error(`not a change: ${change}`);
  const { predicate, args } = parseFact(change.slice(1));
  const name = (id: string): string => entityName(id, sliced);
  const verb = sign === "+" ? variant(BECOMES, change) : variant(NO_LONGER, change);
  const subject = (id: string): string => `The ${name(id)}`;
  switch (predicate) {
    case "RightGrasping":
    case "LeftGrasping": {
      const side = predicate === "RightGrasping" ? "right" : "left";
      return `The robot ${args[0]} ${verb} using the ${side} gripper to grasp the ${name(args[1])}.`;
    }
    case "OnTop":
      return `${subject(args[0])} ${verb} on top of and touching the ${name(args[1])}.`;
    case "Inside":
      return `${subject(args[0])} ${verb} inside the ${name(args[1])}.`;
    case "Under":
      return `${subject(args[0])} ${verb} under the ${name(args[1])}.`;
    case "Contains":
      return `${subject(args[0])} ${verb} containing the ${name(args[1])}.`;
    case "Covered":
      return `${subject(args[0])} ${verb} covered by the ${name(args[1])}.`;
    case "Open":
      return `${subject(args[0])} ${verb} open.`;
    case "ToggledOn":
      return `${subject(args[0])} ${verb} turned on.`;
    case "Cooked":
      return `${subject(args[0])} ${verb} cooked.`;
    case "Transition":
      // "The log now becomes the half log." (never undone)
      return sign === "+"
        ? `The ${entityName(args[0])} now becomes the ${entityName(args[1])}.`
        : `The ${entityName(args[1])} is no longer the ${entityName(args[1])}.`;
    default:
      throw new Error(`no text for predicate ${predicate}`);
  }
}

/** Changes in the order their sentences appear. */
export function orderChangesForText(changes: readonly string[]): string[] {
  const rank = (c: string): number => {
    const p = PREDICATE_ORDER.indexOf(parseFact(c.slice(1)).predicate);
    return (c[0] === "+" ? 0 : 100) + (p < 0 ? 99 : p);
  };
  return [...changes].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The action text of a (visible) change set. */
export function describeChanges(changes: readonly string[], sliced: readonly string[] = []): string {
  if (changes.length === 0) throw new Error("an action must change something");
  return orderChangesForText(changes)
    .map((c) => describeChange(c, sliced))
    .join(" ");
}
