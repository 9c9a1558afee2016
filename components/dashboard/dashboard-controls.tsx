"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTransition } from "react";

export interface ControlOption {
  value: string;
  label: string;
}

export interface ControlSpec {
  name: string;
  label: string;
  value: string;
  options: ControlOption[];
  /** the value the page takes when the link leaves this choice out: choosing it leaves it out (one link, one stored view, per view) */
  defaultValue?: string | null;
}

/**
 * The dashboard's choices as selects that rewrite the URL's search params (so a link reproduces
 * the view); the server page recomputes. Shows a "computing" note while the new view loads.
 */
export function DashboardControls({ controls }: { controls: ControlSpec[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();

  function change(control: ControlSpec, value: string) {
    const { name } = control;
    const next = new URLSearchParams(searchParams.toString());
    if (value === control.defaultValue) next.delete(name);
    else next.set(name, value);
    // a level belongs to an encoding: a new encoding starts from its own default level
    if (name === "encoding") next.delete("level");
    startTransition(() => router.replace(`${pathname}?${next.toString()}`, { scroll: false }));
  }

  return (
    <div className="flex flex-wrap items-end gap-3" aria-busy={pending}>
      {controls.map((control) => (
        <label key={control.name} className="flex min-w-0 max-w-full flex-col gap-1 text-xs font-medium text-slate-600">
          {control.label}
          <select
            name={control.name}
            value={control.value}
            onChange={(event) => change(control, event.target.value)}
            className="h-8 w-full max-w-[24rem] rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-800 outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
          >
            {control.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      <span role="status" className={`pb-1.5 text-xs text-slate-500 ${pending ? "" : "invisible"}`}>
        Computing…
      </span>
    </div>
  );
}
