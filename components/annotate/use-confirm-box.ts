"use client";

import { useEffect, useRef, useState, type ChangeEvent } from "react";

/**
 * A confirmation checkbox that gates a button (consent, withdrawal). The box is left to the
 * browser (uncontrolled), and its state is read once the page's scripts run: a box ticked before
 * then (a slow phone) fired no onChange, and a controlled box would have kept its button disabled
 * while it showed ticked. Spread `box` on the <input>.
 */
export function useConfirmBox() {
  const [checked, setChecked] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current?.checked) setChecked(true);
  }, []);
  return {
    checked,
    box: { ref, type: "checkbox" as const, defaultChecked: false, onChange: (event: ChangeEvent<HTMLInputElement>) => setChecked(event.target.checked) },
  };
}
