/** Statuses whose responses have no body (a Response cannot be built with one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch for the Stripe SDK with an overall deadline per call, the answer's body included.
 * The SDK's own `timeout` ends when the headers arrive (its Node client's is an idle timeout),
 * so a Stripe stand-in or proxy that trickles the body would hold the request, and the
 * project's in-flight slot, for ever. The body is read within the deadline; past it the call
 * fails as a connection error (502 for the caller) and its socket is closed.
 */
export function deadlineFetch(deadlineMs: number): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(deadlineMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const res = await fetch(input, { ...init, signal });
    const body = NO_BODY.has(res.status) ? null : await res.arrayBuffer();
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
