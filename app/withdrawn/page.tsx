import type { Metadata } from "next";
import { JoinFrame } from "@/components/join/join-frame";

export const metadata: Metadata = { title: "Withdrawn" };

/** Where a participant lands after withdrawing (signed out). */
export default function WithdrawnPage() {
  return (
    <JoinFrame title="You have withdrawn">
      <p className="text-sm text-slate-600" data-testid="withdrawn">
        Your answers in the study were deleted, and you are signed out. Thank you for your time. If you came from a recruitment platform such as Prolific, you
        can close this page and return the study there.
      </p>
    </JoinFrame>
  );
}
