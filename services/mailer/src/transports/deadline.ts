import { VendorSendError, type Transport } from './transport';

/**
 * The transport with an overall deadline per send. The vendor clients' own timeouts are idle
 * timeouts: a vendor that trickles its answer a byte at a time would hold the send, its slot
 * and, under an Idempotency-Key, a pooled database connection for ever. Past the deadline the
 * send counts as unreachable (the next provider is tried); the vendor's socket ends with its
 * idle timeout or the answer.
 */
export function withDeadline(transport: Transport, deadlineMs: number): Transport {
  return {
    name: transport.name,
    send: (email) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new VendorSendError(`${transport.name} did not answer within ${deadlineMs} ms`, true)),
          deadlineMs,
        );
        transport
          .send(email)
          .then(resolve, reject)
          .finally(() => clearTimeout(timer));
      }),
  };
}
