import type { Json } from "@/lib/tasks/types";

/**
 * Reading a kind's own views (publicView's output, a play view) where they come back as Json:
 * the agent contract's examples (KindAgentContract) compute from them. Lenient: a view of another
 * shape gives undefined / null, and the example is then null.
 */

/** A field of a view object; undefined when the view is not an object or has no such field. */
export function viewField(view: Json | undefined, name: string): Json | undefined {
  return view !== null && typeof view === "object" && !Array.isArray(view) ? view[name] : undefined;
}

/** A field that is an array; null otherwise. */
export function viewArray(view: Json | undefined, name: string): Json[] | null {
  const value = viewField(view, name);
  return Array.isArray(value) ? value : null;
}

/** A field that is a plain object; null otherwise. */
export function viewObject(view: Json | undefined, name: string): { [key: string]: Json } | null {
  const value = viewField(view, name);
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
}
