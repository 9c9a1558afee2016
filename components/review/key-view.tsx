import type { Json } from "@/lib/tasks/types";
import { JsonView } from "@/components/review/json-view";
import { keyViewOf, keyViews } from "@/components/tasks/key-views";

/**
 * The answer key as reviewers see it: the kind's own renderer of its reviewView when one is
 * registered (components/tasks/key-views.ts), else the generic rendering of its JSON
 * (components/review/json-view.tsx), so that a new benchmark gets review without any code here.
 */
export function hasKeyRenderer(kind: string): boolean {
  return keyViewOf(kind) !== null;
}

export function KeyView({ kind, view }: { kind: string; view: Json }) {
  const Renderer = Object.hasOwn(keyViews, kind) ? keyViews[kind] : null;
  if (Renderer) return <Renderer view={view} />;
  return (
    <div data-testid="key-generic">
      <JsonView value={view} />
    </div>
  );
}
