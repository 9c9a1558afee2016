/** ENACT's keys for reviewers (key-view.tsx of both ENACT kinds): the note shown when a key has no symbolic states. */
export function SemanticNote({ available }: { available: boolean }) {
  return available ? null : (
    <p className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-800">This key has no symbolic states: only the exact order counts as correct.</p>
  );
}
