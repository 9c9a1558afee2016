/** The text input look shared by Yardstick's forms. */
export const inputClass =
  "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100";

/** A labelled form field with a hint, replaced by the field's error when there is one. */
export function Field({ label, hint, error, children }: { label: string; hint?: string; error?: string; children: React.ReactNode }) {
  return (
    <label className="block text-sm">
      <span className="mb-1 block font-medium text-slate-700">{label}</span>
      {children}
      {error ? (
        <span className="mt-1 block text-xs text-red-600" data-field-error>
          {error}
        </span>
      ) : hint ? (
        <span className="mt-1 block text-xs text-slate-500">{hint}</span>
      ) : null}
    </label>
  );
}

/**
 * Brings the first field error under `root` (in page order) into view and focuses its control, so
 * that a form refused on submit shows where to fix it even when the error is far up or down the
 * page. Errors are the elements marked `data-field-error` (Field marks its own); the control is the
 * first input, select or textarea of the error's label or fieldset. Returns whether one was found.
 */
export function focusFirstFieldError(root: HTMLElement | null): boolean {
  const error = root?.querySelector<HTMLElement>("[data-field-error]");
  if (!error) return false;
  const holder = error.closest("label, fieldset, [data-field]") ?? error.parentElement;
  const control = holder?.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea");
  const target = control ?? error;
  target.scrollIntoView({ block: "center" });
  control?.focus({ preventScroll: true });
  return true;
}
