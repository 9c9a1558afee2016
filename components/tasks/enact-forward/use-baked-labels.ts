"use client";

import { useEffect, useState } from "react";
import { hasBakedLabel } from "@/components/tasks/enact-forward/baked-label";

const found = new Map<string, Promise<boolean>>();

/** Reads the image's pixels (the study's own assets: same origin, so the canvas is readable). */
function detect(src: string): Promise<boolean> {
  let promise = found.get(src);
  if (!promise) {
    promise = new Promise<boolean>((resolve) => {
      const image = new Image();
      image.onload = () => {
        try {
          const { naturalWidth: width, naturalHeight: height } = image;
          if (width !== height || width < 64) return resolve(false);
          const canvas = document.createElement("canvas");
          canvas.width = width;
          canvas.height = height;
          const context = canvas.getContext("2d", { willReadFrequently: true });
          if (!context) return resolve(false);
          context.drawImage(image, 0, 0);
          resolve(hasBakedLabel(context.getImageData(0, 0, width, height).data, width, height, 4));
        } catch {
          resolve(false);
        }
      };
      image.onerror = () => resolve(false);
      image.src = src;
    });
    found.set(src, promise);
  }
  return promise;
}

/** The images among `sources` that carry ENACT's own caption (baked-label.ts); empty until known. */
export function useBakedLabels(sources: readonly string[]): ReadonlySet<string> {
  const [labelled, setLabelled] = useState<ReadonlySet<string>>(() => new Set());
  const key = sources.join("\n");
  useEffect(() => {
    let live = true;
    const list = key.split("\n");
    void Promise.all(list.map(detect)).then((flags) => {
      if (live) setLabelled(new Set(list.filter((_, i) => flags[i])));
    });
    return () => {
      live = false;
    };
  }, [key]);
  return labelled;
}
