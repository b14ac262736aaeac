/** State whose newest value a handler can read at once: a form submitted by Enter right after the last key would otherwise send the value of the previous render. */
import { useCallback, useRef, useState } from 'preact/hooks';

export function useLatestState<T>(initial: T): [T, (next: T) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const latest = useRef(initial);
  const set = useCallback((next: T) => {
    latest.current = next;
    setValue(next);
  }, []);
  return [value, set, latest];
}
