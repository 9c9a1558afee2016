"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { callApi } from "@/lib/client/api";

type ItemRole = "ordinary" | "practice" | "gold";

const hints: Record<ItemRole, string> = {
  ordinary: "An ordinary item: k participants each, in the main queue",
  practice: "Practice: before the real items, to everyone, with its answer shown",
  gold: "Gold: a check mixed into the main queue; failures count toward exclusion",
};

/**
 * The study overview's practice / gold choice of one item (PATCH /api/studies/<slug>/items/<id>).
 * The server refuses once the item was handed out (its answers were scored as what it was then)
 * and the refusal shows under the choice; an answered item's choice is disabled from the start.
 */
export function ItemRoleControl({
  slug,
  itemId,
  externalId,
  role,
  answered,
}: {
  slug: string;
  itemId: string;
  externalId: string;
  role: ItemRole;
  answered: number;
}) {
  const router = useRouter();
  const [value, setValue] = useState<ItemRole>(role);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const locked = answered > 0;

  async function change(next: ItemRole) {
    setError(null);
    setValue(next);
    setPending(true);
    const result = await callApi<{ role: ItemRole }>(`/api/studies/${encodeURIComponent(slug)}/items/${encodeURIComponent(itemId)}`, {
      method: "PATCH",
      json: { role: next },
    });
    setPending(false);
    if (!result.ok) {
      setValue(role);
      setError(result.unreachable ? "Not changed: the server cannot be reached." : `Not changed: ${result.error ?? "the server refused"}`);
      return;
    }
    router.refresh();
  }

  return (
    <div className="min-w-[7.5rem]">
      <select
        aria-label={`Role of ${externalId}`}
        value={value}
        disabled={locked || pending}
        onChange={(e) => void change(e.target.value as ItemRole)}
        title={
          locked
            ? `Answered ${answered} time${answered === 1 ? "" : "s"}: the answers were scored as ${value === "ordinary" ? "an ordinary item" : value}; a new study version can change it`
            : hints[value]
        }
        data-testid="item-role"
        className={`h-8 rounded-md border px-2 text-xs disabled:cursor-not-allowed disabled:opacity-70 ${value === "practice" ? "border-blue-200 bg-blue-50 text-blue-800" : value === "gold" ? "border-amber-200 bg-amber-50 text-amber-800" : "border-slate-300 bg-white text-slate-700"}`}
      >
        <option value="ordinary">ordinary</option>
        <option value="practice">practice</option>
        <option value="gold">gold</option>
      </select>
      {error ? (
        <p role="alert" className="mt-1 max-w-xs whitespace-normal text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
