/** A new token's text, shown once after it is made (only its hash is stored): the message says whose it is. */
export function TokenShownOnce({ message, token, testId }: { message: string; token: string; testId: string }) {
  return (
    <div role="status" className="mx-5 mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      <p className="font-medium">{message}</p>
      <code data-testid={testId} className="mt-1 block break-all rounded bg-white px-2 py-1 font-mono text-xs">
        {token}
      </code>
    </div>
  );
}
