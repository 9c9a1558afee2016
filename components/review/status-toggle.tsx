"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { callApi } from "@/lib/client/api";

/** Close a review study (no more verdicts) or open it again. */
export function StatusToggle({ slug, status }: { slug: string; status: "OPEN" | "CLOSED" }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        type="button"
        variant="secondary"
        size="sm"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setError(null);
          const result = await callApi(`/api/review/studies/${slug}`, { method: "PATCH", json: { status: status === "OPEN" ? "CLOSED" : "OPEN" } });
          setPending(false);
          if (!result.ok) setError("Could not change the status");
          router.refresh();
        }}
      >
        {status === "OPEN" ? "Close the review" : "Reopen the review"}
      </Button>
      {error ? <span className="text-xs text-red-700">{error}</span> : null}
    </span>
  );
}
