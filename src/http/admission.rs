//! Who holds the `--max-connections` slots, and who gives one up when a
//! new connection needs it: the bookkeeping of the accept loop
//! (`http::server`), with no I/O of its own.
//!
//! A connection is either *waiting* (it has no request in hand: it has
//! sent nothing yet, or part of a head, or it sits idle between requests
//! on keep-alive) or *busy* (the service has its request and has not yet
//! handed back the whole answer). Waiting connections are kept in the
//! order they began to wait. When every slot is taken, the accept loop
//! takes the slot of the one that has waited longest, as nginx's
//! `ngx_drain_connections` does: that connection is told to close and
//! stops counting at once, so the newcomer never waits behind idle
//! sockets. A busy connection is never chosen; only when every slot is
//! busy does a newcomer wait, in the kernel's listen backlog, for one to
//! finish.
//!
//! A chosen connection frees what it holds only when the runtime runs its
//! task. So that a burst cannot pile such tasks up, no connection takes
//! hyper's buffers while too many chosen ones that hold buffers have yet
//! to go (it waits, holding a socket and a small task), and no newcomer is
//! let in while too many chosen ones of any kind have (it waits in the
//! listen backlog).
//!
//! One lock guards the whole ledger. A request takes it twice (when the
//! service gets the request and when its answer has been handed over), a
//! new connection once, for a handful of map operations on at most
//! `--max-connections` entries.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use crate::metrics::ConnectionMetrics;

/// The ledger of slots, shared by the accept loop and every connection.
pub(crate) struct Admission {
    ledger: Mutex<Ledger>,
    /// Signalled when a slot frees, a busy connection starts waiting or a
    /// chosen one has gone, so an accept loop that found no room can try
    /// again.
    room: Notify,
    /// Signalled once for each chosen connection with buffers that has
    /// gone, so a connection waiting to start on hyper can try again.
    gate: Notify,
    /// `--max-connections`.
    max: usize,
    /// Most connections that own hyper's buffers, chosen to make room and
    /// not yet gone, when another connection would take such buffers (a
    /// quarter of `max`, at least 16). Their tasks must run to free what
    /// they hold; under a burst faster than that, newcomers wait before
    /// hyper, holding a socket and a small task each, rather than piling
    /// buffers up. (A chosen connection that has sent nothing holds no
    /// buffers and is not counted.)
    max_chosen: usize,
    /// Most connections chosen to make room and not yet gone, with
    /// buffers or without, when a newcomer asks (`max`, at least 64).
    max_closing: usize,
    metrics: ConnectionMetrics,
}

struct Ledger {
    /// Connections holding a slot: never above `max`.
    counted: usize,
    /// Connections owning hyper's buffers, chosen to make room, that have
    /// not yet gone. No connection starts on hyper while it is at
    /// `max_chosen`; choices go on (a newcomer's, or one passed on by a
    /// connection reclaiming its slot), so it may pass it by those.
    chosen: usize,
    /// Connections chosen to make room that have not yet gone, with
    /// buffers or without: the accept loop lets no newcomer in while they
    /// are `max_closing`, so that chosen tasks the runtime has yet to run
    /// cannot pile up.
    closing: usize,
    /// The waiting connections holding a slot, by the moment they began to
    /// wait: the first is the one to close to make room.
    waiting: BTreeMap<u64, Arc<Conn>>,
    /// The next waiting ticket: tickets only grow, so `waiting` is in the
    /// order connections began to wait.
    next_ticket: u64,
}

/// What [`Admission::start_http`] says.
#[derive(Debug, PartialEq)]
pub(crate) enum Start {
    /// Take hyper's buffers.
    Go,
    /// Wait for [`Admission::gate`], then ask again.
    Wait,
    /// Chosen to make room: close.
    Chosen,
}

/// A connection holds a slot.
const HOLDS: u8 = 0;
/// A connection was chosen to make room and has not yet gone.
const CHOSEN: u8 = 1;
/// A connection has gone, or gave its slot up for shutdown.
const GONE: u8 = 2;

/// One connection's entry in the ledger, shared by its task, the service
/// that answers its requests and the accept loop.
///
/// Its fields change only under the ledger's lock; they are atomics only
/// so that the three can share them. `served`, `in_hand` and `state` are
/// read without it where a value a moment old does no harm.
pub(crate) struct Conn {
    /// Woken once each time the connection is chosen to make room.
    chosen: Notify,
    /// Its key in `Ledger::waiting`, or 0 while it is busy or closing.
    ticket: AtomicU64,
    /// Requests the service has and has not yet answered in full.
    in_hand: AtomicU32,
    /// Whether the service has had a request of it: before its first, the
    /// whole head must arrive within the header timeout counted from
    /// accept.
    served: AtomicBool,
    /// [`HOLDS`], [`CHOSEN`] or [`GONE`].
    state: AtomicU8,
    /// Whether it has bytes and so hyper's buffers.
    costly: AtomicBool,
}

impl Admission {
    pub(crate) fn new(max: usize, metrics: ConnectionMetrics) -> Admission {
        metrics.open.set(0.0);
        let max = max.max(1);
        Admission {
            ledger: Mutex::new(Ledger {
                counted: 0,
                chosen: 0,
                closing: 0,
                waiting: BTreeMap::new(),
                next_ticket: 1,
            }),
            room: Notify::new(),
            gate: Notify::new(),
            max,
            max_chosen: (max / 4).max(16),
            max_closing: max.max(64),
            metrics,
        }
    }

    pub(crate) fn metrics(&self) -> &ConnectionMetrics {
        &self.metrics
    }

    fn ledger(&self) -> MutexGuard<'_, Ledger> {
        // A panic never leaves the ledger half-written (each change is a
        // few plain steps), so a poisoned lock is still a good one.
        self.ledger.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot for a connection just accepted, waiting for its request: a
    /// free one, or the one of the connection that has waited longest,
    /// which is told to close. `None` when every slot is busy, or as many
    /// connections as there are slots have been chosen and not yet gone:
    /// wait for [`Admission::room`] and ask again.
    pub(crate) fn admit(&self) -> Option<Arc<Conn>> {
        let mut ledger = self.ledger();
        if ledger.closing >= self.max_closing || !ledger.take_slot(self) {
            return None;
        }
        let conn = Arc::new(Conn {
            chosen: Notify::new(),
            ticket: AtomicU64::new(0),
            in_hand: AtomicU32::new(0),
            served: AtomicBool::new(false),
            state: AtomicU8::new(HOLDS),
            costly: AtomicBool::new(false),
        });
        ledger.wait(&conn);
        Some(conn)
    }

    /// `conn`, chosen to make room, has found a request waiting unread in
    /// its socket: it takes a slot back, a free one or the one of the
    /// connection that has waited longest (which is chosen in its turn),
    /// and waits again as the newest. So the one closed is the oldest
    /// that has nothing to read. `false` if every slot is busy: it closes.
    pub(crate) fn reclaim(&self, conn: &Arc<Conn>) -> bool {
        let mut ledger = self.ledger();
        match conn.state.load(Relaxed) {
            HOLDS => return true,
            GONE => return false,
            _ => {}
        }
        if !ledger.take_slot(self) {
            return false;
        }
        if ledger.release_chosen(conn) {
            self.gate.notify_one();
        }
        conn.state.store(HOLDS, Relaxed);
        ledger.wait(conn);
        true
    }

    /// `conn`'s first bytes have come: may it take hyper's buffers now?
    /// Not if it was chosen to make room meanwhile (it closes instead), nor
    /// while `max_chosen` chosen connections with buffers have yet to go
    /// (it waits for [`Admission::gate`] and asks again).
    pub(crate) fn start_http(&self, conn: &Conn) -> Start {
        let ledger = self.ledger();
        if conn.state.load(Relaxed) != HOLDS {
            return Start::Chosen;
        }
        if ledger.chosen >= self.max_chosen {
            return Start::Wait;
        }
        conn.costly.store(true, Relaxed);
        Start::Go
    }

    /// Completes when a chosen connection with buffers may have gone since
    /// [`Admission::start_http`] said to wait. Create it, and `enable` it,
    /// before asking, so that no signal is missed between.
    pub(crate) fn gate(&self) -> tokio::sync::futures::Notified<'_> {
        self.gate.notified()
    }

    /// Completes when a slot may have come free since the last
    /// [`Admission::admit`] that found none.
    pub(crate) async fn room(&self) {
        self.room.notified().await;
    }

    /// The service has a request of `conn`: it is busy, and is not chosen
    /// to make room until the answer is handed over.
    pub(crate) fn request_started(&self, conn: &Conn) {
        let mut ledger = self.ledger();
        ledger.stop_waiting(conn);
        conn.in_hand.fetch_add(1, Relaxed);
        conn.served.store(true, Relaxed);
    }

    /// The answer to one of `conn`'s requests is handed over whole: with
    /// nothing else in hand, it waits again, as the newest.
    pub(crate) fn request_finished(&self, conn: &Arc<Conn>) {
        let mut ledger = self.ledger();
        let left = conn.in_hand.fetch_sub(1, Relaxed) - 1;
        if left == 0 && conn.state.load(Relaxed) == HOLDS {
            ledger.wait(conn);
            drop(ledger);
            self.room.notify_one();
        }
    }

    /// For shutdown: `conn` gives up its slot and is closing. Whether it
    /// had nothing in hand (so it may close at once).
    pub(crate) fn withdraw(&self, conn: &Conn) -> bool {
        self.give_up(conn);
        conn.in_hand.load(Relaxed) == 0
    }

    /// `conn` has closed: its slot, if it still held one, is free.
    pub(crate) fn leave(&self, conn: &Conn) {
        self.give_up(conn);
    }

    fn give_up(&self, conn: &Conn) {
        let mut ledger = self.ledger();
        match conn.state.swap(GONE, Relaxed) {
            HOLDS => {
                ledger.stop_waiting(conn);
                ledger.counted -= 1;
                self.metrics.open.set(ledger.counted as f64);
            }
            CHOSEN => {
                if ledger.release_chosen(conn) {
                    self.gate.notify_one();
                }
            }
            _ => return,
        }
        drop(ledger);
        self.room.notify_one();
    }
}

impl Ledger {
    /// A slot for a newcomer: a free one, or the one of the connection
    /// that has waited longest, which is told to close. `false` if every
    /// slot is busy.
    fn take_slot(&mut self, admission: &Admission) -> bool {
        if self.counted < admission.max {
            self.counted += 1;
            admission.metrics.open.set(self.counted as f64);
            return true;
        }
        let Some((_, oldest)) = self.waiting.pop_first() else {
            return false;
        };
        oldest.ticket.store(0, Relaxed);
        oldest.state.store(CHOSEN, Relaxed);
        self.closing += 1;
        if oldest.costly.load(Relaxed) {
            self.chosen += 1;
        }
        oldest.chosen.notify_one();
        true
    }

    /// `conn`, chosen, is no longer: it has gone or taken a slot back.
    /// Whether it held buffers (and so one more may start on hyper).
    fn release_chosen(&mut self, conn: &Conn) -> bool {
        self.closing -= 1;
        let costly = conn.costly.load(Relaxed);
        if costly {
            self.chosen -= 1;
        }
        costly
    }

    /// `conn` begins to wait, as the newest waiting connection.
    fn wait(&mut self, conn: &Arc<Conn>) {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        conn.ticket.store(ticket, Relaxed);
        self.waiting.insert(ticket, conn.clone());
    }

    /// `conn` waits no more (if it did).
    fn stop_waiting(&mut self, conn: &Conn) {
        let ticket = conn.ticket.swap(0, Relaxed);
        if ticket != 0 {
            self.waiting.remove(&ticket);
        }
    }
}

impl Conn {
    /// Completes once the connection has been chosen to make room.
    pub(crate) async fn chosen(&self) {
        self.chosen.notified().await;
    }

    /// Whether the service has had a request of it.
    pub(crate) fn served(&self) -> bool {
        self.served.load(Relaxed)
    }

    /// Whether it has a request in hand.
    pub(crate) fn busy(&self) -> bool {
        self.in_hand.load(Relaxed) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;

    fn admission(max: usize) -> Admission {
        Admission::new(max, Metrics::noop().connections(max))
    }

    fn chosen(conn: &Conn) -> bool {
        conn.state.load(Relaxed) != HOLDS
    }

    #[test]
    fn a_new_connection_takes_a_free_slot_then_the_longest_waiting_ones() {
        let admission = admission(2);
        let a = admission.admit().unwrap();
        let b = admission.admit().unwrap();
        assert!(!chosen(&a) && !chosen(&b));
        // Full: the third takes the slot of the first, which waited longest.
        let c = admission.admit().unwrap();
        assert!(chosen(&a) && !chosen(&b) && !chosen(&c));
        assert_eq!(admission.ledger().counted, 2);
        // The first closing frees nothing more: its slot went to the third.
        admission.leave(&a);
        assert_eq!(admission.ledger().counted, 2);
        let d = admission.admit().unwrap();
        assert!(chosen(&b) && !chosen(&c) && !chosen(&d));
    }

    #[test]
    fn a_busy_connection_is_never_chosen_and_waits_again_as_the_newest() {
        let admission = admission(2);
        let a = admission.admit().unwrap();
        let b = admission.admit().unwrap();
        admission.request_started(&a);
        // a is busy: b goes, though a is older.
        let c = admission.admit().unwrap();
        assert!(chosen(&b) && !chosen(&a));
        // With a busy and c waiting, c goes next.
        let d = admission.admit().unwrap();
        assert!(chosen(&c) && !chosen(&a));
        // a's answer handed over: it waits again, newer than d.
        admission.request_finished(&a);
        let e = admission.admit().unwrap();
        assert!(chosen(&d) && !chosen(&a) && !chosen(&e));
    }

    #[test]
    fn with_every_slot_busy_a_newcomer_waits_until_one_frees() {
        let admission = admission(1);
        let a = admission.admit().unwrap();
        admission.request_started(&a);
        assert!(admission.admit().is_none());
        admission.request_finished(&a);
        assert!(admission.admit().is_some());
        assert!(chosen(&a));
    }

    #[test]
    fn no_one_starts_on_hyper_while_too_many_chosen_connections_have_yet_to_go() {
        let admission = admission(16);
        let with_bytes = |admission: &Admission| {
            let conn = admission.admit().unwrap();
            assert_eq!(admission.start_http(&conn), Start::Go);
            conn
        };
        let first: Vec<_> = (0..16).map(|_| with_bytes(&admission)).collect();
        // 16 newcomers take the first 16's slots, which are slow to go.
        let second: Vec<_> = (0..16).map(|_| admission.admit().unwrap()).collect();
        assert!(first.iter().all(|c| chosen(c)));
        assert_eq!(admission.ledger().chosen, 16);
        assert_eq!(admission.start_http(&second[15]), Start::Wait);
        // Another newcomer is let in all the same (its choice, the first
        // of the second 16, holds no buffers), but waits before hyper too.
        let third = admission.admit().unwrap();
        assert_eq!(admission.start_http(&third), Start::Wait);
        // One goes: the newcomer may start.
        admission.leave(&first[0]);
        assert_eq!(admission.start_http(&third), Start::Go);
    }

    #[test]
    fn a_chosen_connection_that_has_sent_nothing_holds_up_no_start_on_hyper() {
        let admission = admission(16);
        let first: Vec<_> = (0..64).map(|_| admission.admit().unwrap()).collect();
        let second: Vec<_> = (0..16).map(|_| admission.admit().unwrap()).collect();
        assert!(first[..48].iter().all(|c| chosen(c)));
        assert_eq!(admission.ledger().chosen, 0);
        assert_eq!(admission.start_http(&second[0]), Start::Go);
        // But no more newcomers while 64 have yet to go.
        assert_eq!(admission.ledger().closing, 64);
        assert!(admission.admit().is_none());
        admission.leave(&first[0]);
        assert!(admission.admit().is_some());
        // Once chosen, it never starts on hyper.
        assert_eq!(admission.start_http(&first[0]), Start::Chosen);
    }

    #[test]
    fn a_chosen_connection_with_a_request_waiting_passes_the_choice_on() {
        let admission = admission(2);
        let a = admission.admit().unwrap();
        let b = admission.admit().unwrap();
        let c = admission.admit().unwrap();
        assert!(chosen(&a));
        // a's request had come in: it takes b's slot, and waits as the newest.
        assert!(admission.reclaim(&a));
        assert!(!chosen(&a) && chosen(&b) && !chosen(&c));
        assert_eq!(admission.ledger().counted, 2);
        let d = admission.admit().unwrap();
        assert!(chosen(&c) && !chosen(&a));
        // With every slot busy, a chosen connection cannot stay.
        admission.request_started(&a);
        let e = admission.admit().unwrap();
        assert!(chosen(&d));
        admission.request_started(&e);
        assert!(!admission.reclaim(&c));
        assert_eq!(admission.ledger().counted, 2);
    }

    #[test]
    fn a_connection_that_closes_frees_its_slot_once() {
        let admission = admission(2);
        let a = admission.admit().unwrap();
        let _b = admission.admit().unwrap();
        admission.leave(&a);
        admission.leave(&a);
        assert_eq!(admission.ledger().counted, 1);
        assert_eq!(admission.ledger().waiting.len(), 1);
        // Withdrawn for shutdown, then closed: one slot back, not two.
        let c = admission.admit().unwrap();
        admission.request_started(&c);
        assert!(!admission.withdraw(&c), "c has a request in hand");
        admission.request_finished(&c);
        admission.leave(&c);
        assert_eq!(admission.ledger().counted, 1);
        assert_eq!(admission.ledger().waiting.len(), 1);
    }
}
