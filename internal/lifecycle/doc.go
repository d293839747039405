// Package lifecycle is the one room of the order lifecycle. Everything that decides what
// an order is, may become or needs lives here, as pure functions of the order and the
// facts around it (no I/O, no clients), so that every rule is table-tested without an API
// server and every caller asks the same question the same way:
//
//   - the state machine: Next decides the one move an order makes now from its state, its
//     evidence and Facts (market flags, the redemption gate, the SELL's reservation);
//     Path, ValidHistory and StateReason describe the states of each side;
//   - cancellation: Cancellable is the point of no return (a BUY's execution or recorded
//     token transfer, a SELL's first burn or payout), NewRefund what a cancelled BUY owes;
//   - the settlement steps: Step names each piece of evidence and its Side (money or
//     token), NextStep is the evidence an order waits for, Record writes it once;
//   - what the controllers still have to do: NeedsReconcile, Done, RefundOutstanding;
//   - the conditions an order reports (kstatus Ready / Reconciling / Stalled, Waiting,
//     CancellationRefused) and every reason they, the history and the Events carry;
//   - the evidence rule admission enforces (subpackage evidence).
//
// The order controller gathers facts and writes what Next decides; the settlement agents
// (the sandbox, the chain agent) settle what NextStep asks for and Record it; admission,
// REST and the bench ask Cancellable, NextStep and the evidence rule. api/v1alpha1 holds
// the types, their markers and constants only.
package lifecycle
