/** A form's outcome after saving: an alert when it went wrong (read out at once), a status when it went through. */
export interface FormOutcome {
  tone: "good" | "bad";
  text: string;
}

export function FormMessage({ message }: { message: FormOutcome }) {
  return (
    <p role={message.tone === "bad" ? "alert" : "status"} className={`text-sm ${message.tone === "bad" ? "text-red-700" : "text-emerald-700"}`}>
      {message.text}
    </p>
  );
}
