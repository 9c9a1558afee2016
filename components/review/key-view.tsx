import type { ComponentType } from "react";
import type { Json } from "@/lib/tasks/types";
import { JsonView } from "@/components/review/json-view";
import { EnactForwardKey, EnactInverseKey } from "@/components/review/key-views/enact";

/**
 * The answer key as reviewers see it: a kind-specific renderer of the kind's reviewView when one
 * is registered here, else the generic rendering of its JSON (components/review/json-view.tsx),
 * so that a new benchmark gets review without any code here.
 */
const keyRenderers: Record<string, ComponentType<{ view: unknown }>> = {
  "enact-forward": EnactForwardKey,
  "enact-inverse": EnactInverseKey,
};

export function hasKeyRenderer(kind: string): boolean {
  return Object.hasOwn(keyRenderers, kind);
}

export function KeyView({ kind, view }: { kind: string; view: Json }) {
  const Renderer = Object.hasOwn(keyRenderers, kind) ? keyRenderers[kind] : null;
  if (Renderer) return <Renderer view={view} />;
  return (
    <div data-testid="key-generic">
      <JsonView value={view} />
    </div>
  );
}
