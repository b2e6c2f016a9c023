-- Murphi model of the swcc MSI protocol for one block: the home (node 0), which is a processor
-- too and requests its own block like any other node, and NPROC caches, over an unordered
-- network. It follows the C++ transition tables; when one changes, the other does. Checked with
-- rumur by tests/swcc/check_model.sh, which also checks that every seeded bug in bugs/bugs.txt
-- is caught, by the property bugs.txt names for it.
--
-- Correspondence (Murphi rule, branch, procedure or function  <->  C++ function):
--   rule "Deliver", m.dst = 0, a message for the home's directory:
--     ReadReq / WriteReq / StoreReq   <-> home_transition() -> on_request()  (protocol_home.cpp),
--                                         from a cache or from the home itself (s = 0)
--     InvalAck                        <-> home_transition(), case kInvalAck
--     FlushData                       <-> home_transition(), case kFlushData
--     RemoteNack                      <-> home_transition(), case kRemoteNack
--   procedure Finish                  <-> finish()                            (protocol_home.cpp)
--   function HomeWriteLocked          <-> HomeEvent::write_locked as Engine::on_home() sets it:
--                                         write_lock_ names the block and home_access() hits
--   function HomeHit                  <-> home_access()                       (protocol_home.cpp)
--   rule "Deliver", m.dst = 0, a reply to the home as requester (m.src = 0):
--     ReadReply / WriteReply / Nack   <-> Engine::on_requester() -> serve(): procedure HomeServe
--     Nack of a StoreReq / StoreAck   <-> Engine::on_requester(): resend the store / store done
--   procedure HomeServe               <-> Engine::serve() and run_deferred() at the home:
--                                         complete_accesses() -> try_read()/try_write() re-check
--                                         with home_access(), then complete (a blocking write
--                                         is granted: "hgranted") or resend the request
--   rules "HomeIssueRead", "HomeIssueWrite"
--                                     <-> home_access() answering kSendRead / kSendWrite, then
--                                         Engine::read_miss() / write_miss() (which sets
--                                         write_lock_ first) -> enqueue() -> a send to itself
--   rule "HomeIssueStore"             <-> Engine::store() at the home when try_write() misses
--   rule "HomeWriteHit"               <-> home_access(kWrite) == kHit: Dsm::writable, or
--                                         Engine::try_write() (its silent upgrade of Shared
--                                         without sharers is unreachable: "Branches" below)
--   rules "ReadHit", "HomeReadHit"    <-> cache_access() / home_access() kRead == kHit
--   rule "HomeApplyLockedWrite"       <-> Engine::write_miss() at the home after the grant: the
--                                         loop's try_write() writes the value (or, were the
--                                         block gone, enqueues again); write_lock_ drops
--   rule "Deliver", m.dst = n > 0 (a cache), by message:
--     ReadReply / WriteReply / StoreAck / Inval / Flush / FlushInval
--                                     <-> cache_transition()                  (protocol_cache.cpp)
--     Nack                            <-> cache_transition() (retry) and then Engine::serve():
--                                         re-check the entry, resend (engine_requests.cpp)
--   rules "IssueRead", "IssueWrite"   <-> cache_access() answering kSendRead / kSendWrite, then
--                                         Engine::enqueue() (one request per block and node)
--   rule "IssueStore"                 <-> Engine::store()
--   rule "WriteHit"                   <-> cache_access(Modified, kWrite) == kHit (Dsm::hit_write)
--   rule "ApplyLockedWrite"           <-> Engine::write_miss() at a cache after the grant: the
--                                         loop's try_write() writes the value (or enqueues
--                                         again); the write-lock flag (write_lock_) drops
-- Range messages (swcc/README.md, "Range messages"; Engine::send/deliver_range): one MPI-level
-- message that stands for the same message type for blocks k..k+n-1 at one home, delivered as
-- those per-block messages one after the other, in order. The model's blocks are independent,
-- so for each block a range message is one ordinary message of this model that the unordered
-- network delivers at the moment the range is delivered; coalescing only delays a message's
-- sending (any delay is a schedule the network already has), and the payload of a range reply
-- is the home's memory of each block as the per-block reply would carry it (nothing writes the
-- block between the transition and the send: the requester becomes a sharer or owner first, and
-- the home writes again only after its InvalAck or FlushData, which follow the data). The model
-- therefore covers range messages without a change.
-- Messages the home sends itself travel through the same unordered network: the C++ queues them
-- in Transport::self_, a FIFO, but fault injection (Transport::next) reorders them.
-- Values are abstracted to one flag per copy, message and the home's memory: "holds the last
-- value written". A write clears every flag but the writer's; a store's payload is a new value
-- when the home applies it. The network is kept sorted, so a multiset of messages is one state.
-- Ghost state (no C++ counterpart): pending[n], the access of node n that missed and is not yet
-- performed, and spending[p], a cache's store not yet applied; procedures Perform (a write takes
-- effect), PerformStore (a store is applied) and ReadValue (a read takes its value, asserting it
-- is the last one written) clear them. Reads that hit are rules of their own
-- ("ReadHit", "HomeReadHit") that change no state: they only check the value read.
--
-- Properties. Safety: "single writer or many readers" between caches, and with the home as
-- reader ("no reader beside a writer at the home") or as writer ("no copy beside the home as
-- writer"); "every valid copy holds the last written value" (the caches); "what the home reads is
-- the last written value": whenever home_access() lets the home read without a request, its
-- memory is current; the assert "a read returns the last written value" at every read, hit or
-- completion, at a cache or at the home; "an access completes only once performed": a node's
-- access is done (want / hwant back to WNone) only after its write took effect or its read took
-- a value, so a write that is granted, acked or NACKed and never written, or a read that ends
-- without data, is caught although every copy still agrees (on the old value); "the write lock
-- keeps a granted block": from the grant of a blocking write until its value is written, the
-- writer (a cache or the home) keeps the block. The C++ write_miss() loop would re-request a
-- block taken in that window, so a broken write lock only starves writers, which liveness
-- (below) cannot see; this invariant states what the lock is for. "Shared has a sharer": the
-- reason the silent upgrade and a store into Shared without sharers are unreachable. "The
-- home's sharers are exactly the copies it accounts for": the sharer set is a function of the
-- copies and the messages in flight (SharerAccounted), so a bookkeeping error is caught where it
-- is made, even one that no copy or request ever notices (finish() clears the set, or no rule
-- reads it before it is cleared). Liveness (rumur: from every reachable state some path reaches
-- the goal): "every request can complete", "the home returns to a stable state". The asserts
-- are the impossible cells (ProtocolError) of the C++ tables, where the model reaches them.
--
-- Branches. Every arm of every rule and procedure that the model reaches has a cover property
-- ("cover NAME true" at its start); rumur reports a cover never hit as an error, so a branch that
-- the checker does not reach fails the check (tests/swcc/check_model.sh names it). The branches
-- of the C++ that cannot be reached are error arms instead ("unreachable: ..."; the checker
-- proves they are never taken), with the reason:
--   on_request() ReadReq or WriteReq from the recorded owner (Nack): a node has one request per
--     block in flight, the one the home granted; it sends no other until the grant arrives, and
--     none while Modified (its accesses hit).
--   on_request() ReadReq from a recorded sharer (Nack): the same, for the reply to its read;
--     and no copy is dropped without an InvalAck (no eviction).
--   serve() after a Nack: the re-check finds the access possible: a copy arrives only with the
--     reply to the node's one request, and that request is the one refused.
--   the silent upgrade of try_write() / home_access(kWrite) in Shared without sharers, and
--     on_request() StoreReq into Shared without sharers: every way into Shared adds a sharer
--     (invariant "Shared has a sharer").
--   write_miss() re-requesting a block lost after its grant: the write lock keeps a granted
--     block (invariant of that name); at the home, serve() after its WriteReply finding the
--     block gone: the home's write lock refuses every request from the grant on.
--
-- Stores beside requests: with STORES_BESIDE = 1 a cache may have one store in flight beside its
-- read or write request, as the C++ allows (Engine::store() sends its StoreReq whatever the
-- requests_ of the block; ctest swcc_model_stores_beside checks that variant, with 3 * NPROC + 1
-- network slots). The checks' default is one access per node at a time.
--
-- What the model leaves out: the NACK backoff of
-- Engine::serve() / run_deferred() and of the home's Inval/Flush resends (a delay only: the
-- model resends at once and the network may hold the message as long as it likes; the re-check
-- after the backoff is matched by the resent request being answered at once); split-phase
-- get/put (a put writes its value inside serve(), at the grant, without the write lock); more
-- than one store in flight per node, a store of the home beside its own read or write, and
-- several accesses riding on one request.
const
  NPROC: 2;
  NETMAX: 5;    -- in flight at once: per cache its request chain and its Inval/Flush chain,
                -- plus the home's own request chain (4 are reached; Send reports "network full");
                -- with STORES_BESIDE also a store chain per cache: 3 * NPROC + 1
  STORES_BESIDE: 0;  -- 1: a cache may have a store in flight beside its read or write request,
                     -- as the C++ allows; 0: one access at a time (the checks' default)
  NKEY: 13 * (NPROC + 1) * (NPROC + 1) * 2 * 13;

type
  Proc: 1..NPROC;
  Node: 0..NPROC;
  CState: enum {CI, CS, CM};
  HState: enum {HS, HM, HBR, HBW};
  Want: enum {WNone, WRead, WWrite, WStore};
  MType: enum {ReadReq, WriteReq, StoreReq, ReadReply, WriteReply, StoreAck, Nack,
               Inval, Flush, FlushInval, InvalAck, FlushData, RemoteNack};
  Slot: 0..NETMAX-1;
  -- cur: the data carried is the last value written (data messages only; false otherwise)
  Msg: record mtype: MType; src: Node; dst: Node; cur: boolean; nacked: MType; end;

var
  hstate: HState;
  sharers: array [Proc] of boolean;   -- HS: read copies; HBW from HS: acks awaited
  owner: Node;                        -- HM/HBR/HBW-after-flush: holder (0: the home); HS: 0
  waitflush: boolean;                 -- busy state waits for FlushData (else for acks)
  pkind: Want;
  preq: Node;
  acks: 0..NPROC;
  memcur: boolean;                    -- the home's memory holds the last value written
  hwant: Want;                        -- the home's own outstanding access
  hgranted: boolean;                  -- the home's blocking write is granted, value not written
  cstate: array [Proc] of CState;
  ccur: array [Proc] of boolean;      -- the cached data is the last value written
  want: array [Proc] of Want;
  locked: array [Proc] of boolean;    -- the cache's blocking write is granted, value not written
  storing: array [Proc] of boolean;   -- the cache's store is in flight (Engine::stores_)
  pending: array [Node] of Want;      -- ghost: node n's access that missed and is not performed
                                      -- yet (its value not written, or not read); WNone: none
  spending: array [Proc] of boolean;  -- ghost: the cache's store is not applied yet
  net: array [Slot] of Msg;           -- the unordered network: net[0..nmsg-1], kept sorted so
  nmsg: 0..NETMAX;                    -- that one multiset of messages is one state

function Ord(t: MType): 0..12;
begin
  switch t
  case ReadReq: return 0;    case WriteReq: return 1;   case StoreReq: return 2;
  case ReadReply: return 3;  case WriteReply: return 4; case StoreAck: return 5;
  case Nack: return 6;       case Inval: return 7;      case Flush: return 8;
  case FlushInval: return 9; case InvalAck: return 10;  case FlushData: return 11;
  else return 12;
  endswitch;
end;

-- A total order on messages (injective), to keep the network sorted.
function Key(m: Msg): 0..NKEY-1;
var c: 0..1;
begin
  if m.cur then c := 1; else c := 0; endif;
  return (((Ord(m.mtype) * (NPROC + 1) + m.src) * (NPROC + 1) + m.dst) * 2 + c) * 13
         + Ord(m.nacked);
end;

procedure SortNet();
var t: Msg;
begin
  for a: Slot do
    for b: Slot do
      if b + 1 < nmsg then
        if Key(net[b + 1]) < Key(net[b]) then
          t := net[b]; net[b] := net[b + 1]; net[b + 1] := t;
        endif;
      endif;
    endfor;
  endfor;
end;

procedure Send(t: MType; s: Node; d: Node; c: boolean; n: MType);
var m: Msg;
begin
  if nmsg = NETMAX then error "network full"; endif;
  m.mtype := t; m.src := s; m.dst := d; m.cur := c; m.nacked := n;
  net[nmsg] := m; nmsg := nmsg + 1;
  SortNet();
end;

-- A value is written: every copy, the home's memory and every message's data are now stale
-- (the writer marks its own copy current afterwards).
procedure Wrote();
begin
  memcur := false;
  for p: Proc do ccur[p] := false; endfor;
  for k: Slot do if k < nmsg then net[k].cur := false; endif; endfor;
  SortNet();
end;

-- Node w's write takes effect (a write hit or a granted blocking write): its pending write, if
-- any, is performed. The caller marks the written copy current.
procedure Perform(w: Node);
begin
  if pending[w] = WWrite | pending[w] = WStore then pending[w] := WNone; endif;
  Wrote();
end;

-- Node w's store is applied at the home.
procedure PerformStore(w: Node);
begin
  if w = 0 then
    if pending[0] = WStore then pending[0] := WNone; endif;
  else
    spending[w] := false;
  endif;
  Wrote();
end;

-- Node r's read takes its value from data that is (cur) or is not the last value written; its
-- pending read, if any, is performed.
procedure ReadValue(r: Node; cur: boolean);
begin
  assert (cur) "a read returns the last written value";
  if pending[r] = WRead then pending[r] := WNone; endif;
end;

-- A message (t, s -> d) is in flight; n: the refused type of a Nack or RemoteNack, else ReadReq.
function InFlight(t: MType; s: Node; d: Node; n: MType): boolean;
begin
  for k: Slot do
    if k < nmsg then
      if net[k].mtype = t & net[k].src = s & net[k].dst = d & net[k].nacked = n then
        return true;
      endif;
    endif;
  endfor;
  return false;
end;

-- The home's sharer set as the copies and the messages in flight determine it. p is a sharer iff
-- p holds a Shared copy, or a ReadReply to p is in flight, or p's InvalAck is in flight, unless
-- the home has already taken p out or has yet to put it in:
--   an upgrade: the home removed p when it took p's WriteReq in Shared; it is collecting the
--     other sharers' acks (BusyWrite, p's write), or p's WriteReply is in flight;
--   a downgrade: the old owner p keeps a Shared copy after a Flush; the home adds p when p's
--     FlushData arrives.
-- An Inval to p, or p's RemoteNack of one, needs no term of its own: while one is in flight p
-- still holds its copy or its ReadReply is on the way (the checker proves it).
function SharerAccounted(p: Proc): boolean;
begin
  return (cstate[p] = CS | InFlight(ReadReply, 0, p, ReadReq) | InFlight(InvalAck, p, 0, ReadReq))
         & !(hstate = HBW & !waitflush & pkind = WWrite & preq = p)
         & !InFlight(WriteReply, 0, p, ReadReq)
         & !InFlight(FlushData, p, 0, ReadReq);
end;

function NoSharers(): boolean;
begin
  for q: Proc do if sharers[q] then return false; endif; endfor;
  return true;
end;

-- home_access(): may the home read (write) its block without a request?
function HomeHit(write: boolean): boolean;
begin
  if hstate = HM & owner = 0 then return true; endif;
  if write then return hstate = HS & NoSharers(); endif;
  return hstate = HS;
end;

-- HomeEvent::write_locked: the home's blocking write holds write_lock_ and may write the block.
function HomeWriteLocked(): boolean;
begin
  return hwant = WWrite & HomeHit(true);
end;

procedure Finish();
begin
  if pkind = WRead then
    cover "finish: read" true;
    hstate := HS; owner := 0;
    if preq != 0 then cover "finish: read by a cache" true; sharers[preq] := true;
    else cover "finish: read by the home" true; endif;
    Send(ReadReply, 0, preq, preq != 0 & memcur, ReadReq);
  elsif pkind = WWrite then
    cover "finish: write" true;
    hstate := HM; owner := preq;
    for p: Proc do sharers[p] := false; endfor;
    Send(WriteReply, 0, preq, preq != 0 & memcur, ReadReq);
  else
    cover "finish: store" true;
    PerformStore(preq); memcur := true;
    hstate := HM; owner := 0;
    for p: Proc do sharers[p] := false; endfor;
    Send(StoreAck, 0, preq, false, ReadReq);
  endif;
  pkind := WNone; preq := 0; waitflush := false;
end;

-- Engine::serve() for the home's own request, after its reply or (nacked) after a Nack and the
-- backoff: re-check, complete or resend. The silent upgrade of try_write() (Shared without
-- sharers) is unreachable: invariant "Shared has a sharer".
procedure HomeServe(nacked: boolean);
begin
  if hwant = WRead then
    if HomeHit(false) then
      if nacked then cover "home serve after a Nack: the re-check finds the read possible" true;
      else cover "home serve after a reply: read completes" true; endif;
      ReadValue(0, memcur); hwant := WNone;
    else
      if nacked then cover "home serve after a Nack: read resent" true;
      else cover "home serve after a reply: the block is gone again, read resent" true; endif;
      Send(ReadReq, 0, 0, false, ReadReq);
    endif;
  elsif hwant = WWrite then
    assert (!hgranted) "home reply with its write already granted";
    if HomeHit(true) then
      if nacked then cover "home serve after a Nack: the re-check finds the write possible" true;
      else cover "home serve after a reply: write granted" true; endif;
      if hstate = HS then error "silent upgrade: unreachable, Shared has a sharer"; endif;
      hgranted := true;
    else
      -- after its WriteReply the block cannot be gone: the home's write lock refuses every
      -- request from then on (HomeWriteLocked)
      if !nacked then error "unreachable: the home's WriteReply finds its block gone"; endif;
      cover "home serve after a Nack: write resent" true;
      Send(WriteReq, 0, 0, false, ReadReq);
    endif;
  else
    error "home reply with no request";
  endif;
end;

startstate
begin
  hstate := HM; owner := 0; waitflush := false; pkind := WNone; preq := 0; acks := 0;
  memcur := true; hwant := WNone; hgranted := false; pending[0] := WNone;
  for p: Proc do
    sharers[p] := false; cstate[p] := CI; ccur[p] := false; want[p] := WNone;
    locked[p] := false; pending[p] := WNone; storing[p] := false; spending[p] := false;
  endfor;
  nmsg := 0;
  for k: Slot do undefine net[k]; endfor;
end;

-- A cache may start a read or write: none in flight, nor a store unless STORES_BESIDE.
function MayAccess(p: Proc): boolean;
begin
  return want[p] = WNone & (STORES_BESIDE = 1 | !storing[p]);
end;

-- The requester side at the caches (engine_requests.cpp, engine_misses.cpp): Issue* <->
-- cache_access() + Engine::enqueue() / store().
ruleset p: Proc do
  rule "ReadHit" MayAccess(p) & cstate[p] != CI ==>
  begin cover "cache: read hit" true; ReadValue(p, ccur[p]); end;

  rule "IssueRead" MayAccess(p) & cstate[p] = CI ==>
  begin
    cover "cache: read miss" true;
    want[p] := WRead; pending[p] := WRead; Send(ReadReq, p, 0, false, ReadReq);
  end;

  rule "IssueWrite" MayAccess(p) & cstate[p] != CM ==>
  begin
    cover "cache: write miss" true;
    want[p] := WWrite; pending[p] := WWrite; Send(WriteReq, p, 0, false, ReadReq);
  end;

  rule "WriteHit" MayAccess(p) & cstate[p] = CM ==>
  begin cover "cache: write hit" true; Perform(p); ccur[p] := true; end;

  rule "IssueStore" !storing[p] & (STORES_BESIDE = 1 | want[p] = WNone) ==>
  begin
    cover "cache: store" true;
    storing[p] := true; spending[p] := true; Send(StoreReq, p, 0, false, ReadReq);
  end;

  -- The C++ loop enqueues again when the block is gone: unreachable, the write lock keeps a
  -- granted block (the invariant of that name).
  rule "ApplyLockedWrite" locked[p] ==>
  begin
    cover "cache: granted write applied" true;
    locked[p] := false;
    if cstate[p] != CM then error "a granted write lost its block"; endif;
    Perform(p); ccur[p] := true; want[p] := WNone;
  end;
endruleset;

-- The home as a requester of its own block (engine_cache.cpp, requester == home). Its write
-- hits are Modified by the home only: the silent upgrade of Shared without sharers is
-- unreachable (invariant "Shared has a sharer").
rule "HomeReadHit" hwant = WNone & HomeHit(false) ==>
begin cover "home: read hit" true; ReadValue(0, memcur); end;

rule "HomeWriteHit" hwant = WNone & HomeHit(true) ==>
begin
  cover "home: write hit" true;
  if hstate = HS then error "silent upgrade: unreachable, Shared has a sharer"; endif;
  Perform(0); memcur := true;
end;

rule "HomeIssueRead" hwant = WNone & !HomeHit(false) ==>
begin
  cover "home: read miss" true;
  hwant := WRead; pending[0] := WRead; Send(ReadReq, 0, 0, false, ReadReq);
end;

rule "HomeIssueWrite" hwant = WNone & !HomeHit(true) ==>
begin
  cover "home: write miss" true;
  hwant := WWrite; pending[0] := WWrite; Send(WriteReq, 0, 0, false, ReadReq);
end;

rule "HomeIssueStore" hwant = WNone & !HomeHit(true) ==>
begin
  cover "home: store miss" true;
  hwant := WStore; pending[0] := WStore; Send(StoreReq, 0, 0, false, ReadReq);
end;

-- As at a cache, the C++ loop's re-request of a lost block is unreachable.
rule "HomeApplyLockedWrite" hgranted ==>
begin
  cover "home: granted write applied" true;
  hgranted := false;
  if !HomeHit(true) then error "a granted write lost its block"; endif;
  if hstate = HS then error "silent upgrade: unreachable, Shared has a sharer"; endif;
  Perform(0); memcur := true; hwant := WNone;
end;

-- Message delivery in any order.
ruleset i: Slot do
  rule "Deliver" i < nmsg
  ==>
  var m: Msg; s: Node; n: 0..NPROC;
  begin
    m := net[i];
    for k: Slot do if k >= i & k + 1 < nmsg then net[k] := net[k + 1]; endif; endfor;
    nmsg := nmsg - 1; undefine net[nmsg];
    s := m.src;
    if m.dst = 0 then
      switch m.mtype
      -- The home's directory: home_transition() in protocol_home.cpp.
      case ReadReq, WriteReq, StoreReq:
        -- on_request(): busy -> Nack; write-locked by the home -> Nack to others; then by
        -- request type and stable state
        if hstate = HBR | hstate = HBW then
          if m.mtype = ReadReq then cover "home: ReadReq while busy, Nack" true;
          elsif m.mtype = WriteReq then cover "home: WriteReq while busy, Nack" true;
          else cover "home: StoreReq while busy, Nack" true; endif;
          Send(Nack, 0, s, false, m.mtype);
        elsif HomeWriteLocked() & s != 0 then
          if m.mtype = ReadReq then cover "home: ReadReq under the home's write lock, Nack" true;
          elsif m.mtype = WriteReq then
            cover "home: WriteReq under the home's write lock, Nack" true;
          else cover "home: StoreReq under the home's write lock, Nack" true; endif;
          Send(Nack, 0, s, false, m.mtype);
        elsif m.mtype = ReadReq then
          if hstate = HM & owner = 0 then
            cover "home: ReadReq, Modified by the home" true;
            if s != 0 then cover "home: ReadReq from a cache, Modified by the home" true;
              hstate := HS; sharers[s] := true;
            else cover "home: ReadReq from the home, Modified by the home" true; endif;
            Send(ReadReply, 0, s, s != 0 & memcur, ReadReq);
          elsif hstate = HM & owner = s then
            -- on_request()'s Nack of a request from the recorded owner ("its grant is still in
            -- flight"): a node sends one request per block at a time and sends none while Modified
            error "unreachable: ReadReq from the recorded owner";
          elsif hstate = HM then
            cover "home: ReadReq, Modified by another, Flush" true;
            hstate := HBR; waitflush := true; pkind := WRead; preq := s;
            Send(Flush, 0, owner, false, ReadReq);
          elsif s = 0 then
            cover "home: ReadReq from the home, Shared" true;
            Send(ReadReply, 0, 0, false, ReadReq);
          elsif sharers[s] then
            -- on_request()'s Nack of a recorded sharer ("reply in flight"): its one request is
            -- the one the reply answers, and no copy is dropped without an InvalAck
            error "unreachable: ReadReq from a recorded sharer";
          else
            cover "home: ReadReq from a cache, Shared" true;
            sharers[s] := true; Send(ReadReply, 0, s, memcur, ReadReq);
          endif;
        elsif m.mtype = WriteReq then
          if hstate = HM & owner = 0 then
            cover "home: WriteReq, Modified by the home" true;
            owner := s; Send(WriteReply, 0, s, s != 0 & memcur, ReadReq);
          elsif hstate = HM & owner = s then
            error "unreachable: WriteReq from the recorded owner";  -- as for ReadReq
          elsif hstate = HM then
            cover "home: WriteReq, Modified by another, FlushInval" true;
            hstate := HBW; waitflush := true; pkind := WWrite; preq := s;
            Send(FlushInval, 0, owner, false, ReadReq);
          else
            if s = 0 then cover "home: WriteReq from the home, Shared" true;
            elsif sharers[s] then cover "home: WriteReq from a sharer, Shared (an upgrade)" true;
              sharers[s] := false;
            else cover "home: WriteReq from a cache without a copy, Shared" true; endif;
            n := 0;
            for q: Proc do if sharers[q] then n := n + 1; endif; endfor;
            if n = 0 then
              cover "home: WriteReq, Shared, no other sharer" true;
              hstate := HM; owner := s; Send(WriteReply, 0, s, s != 0 & memcur, ReadReq);
            else
              cover "home: WriteReq, Shared, Inval the sharers" true;
              hstate := HBW; waitflush := false; pkind := WWrite; preq := s; acks := n;
              for q: Proc do if sharers[q] then Send(Inval, 0, q, false, ReadReq); endif; endfor;
            endif;
          endif;
        else -- StoreReq: the payload is written when the store is applied (a new value)
          if hstate = HM & owner = 0 then
            cover "home: StoreReq, Modified by the home" true;
            PerformStore(s); memcur := true; Send(StoreAck, 0, s, false, ReadReq);
          elsif hstate = HM then
            cover "home: StoreReq, Modified by a cache, FlushInval" true;
            hstate := HBW; waitflush := true; pkind := WStore; preq := s;
            Send(FlushInval, 0, owner, false, ReadReq);
          else
            n := 0;
            for q: Proc do if sharers[q] then n := n + 1; endif; endfor;
            if n = 0 then  -- on_request()'s store into Shared without sharers
              error "unreachable: Shared without sharers";
            else
              cover "home: StoreReq, Shared, Inval the sharers" true;
              hstate := HBW; waitflush := false; pkind := WStore; preq := s; acks := n;
              for q: Proc do if sharers[q] then Send(Inval, 0, q, false, ReadReq); endif; endfor;
            endif;
          endif;
        endif;
      case InvalAck:
        assert (hstate = HBW & !waitflush & s != 0) "impossible InvalAck";
        assert (sharers[s] & acks > 0) "impossible InvalAck";
        sharers[s] := false;
        acks := acks - 1;
        if acks = 0 then cover "home: InvalAck, the last" true; Finish();
        else cover "home: InvalAck, more awaited" true; endif;
      case FlushData:
        assert ((hstate = HBR | hstate = HBW) & waitflush & owner = s) "impossible FlushData";
        memcur := m.cur;
        if hstate = HBR then
          cover "home: FlushData for a read" true;
          for q: Proc do sharers[q] := false; endfor;
          Finish();
          sharers[s] := true;
        else
          cover "home: FlushData for a write or store" true;
          Finish();
        endif;
      case RemoteNack:
        if m.nacked = Inval then
          cover "home: RemoteNack of an Inval" true;
          assert (hstate = HBW & !waitflush & s != 0) "impossible RemoteNack";
          assert (sharers[s]) "impossible RemoteNack";
        else
          if m.nacked = Flush then cover "home: RemoteNack of a Flush" true;
          else cover "home: RemoteNack of a FlushInval" true; endif;
          assert ((hstate = HBR | hstate = HBW) & waitflush & owner = s) "impossible RemoteNack";
          assert ((hstate = HBR) = (m.nacked = Flush)) "impossible RemoteNack";
        endif;
        Send(m.nacked, 0, s, false, ReadReq);
      -- The home as requester: Engine::on_requester().
      case ReadReply, WriteReply:
        cover "home as requester: ReadReply or WriteReply" true;
        assert (s = 0) "home got a cache message";
        HomeServe(false);
      case Nack:
        assert (s = 0) "home got a cache message";
        if m.nacked = StoreReq then  -- resend the refused store (after the backoff)
          cover "home as requester: Nack of its store" true;
          assert (hwant = WStore) "home store Nack with no store";
          Send(StoreReq, 0, 0, false, ReadReq);
        else
          cover "home as requester: Nack of its read or write" true;
          HomeServe(true);
        endif;
      case StoreAck:
        cover "home as requester: StoreAck" true;
        assert (s = 0 & hwant = WStore) "home StoreAck with no store";
        hwant := WNone;
      else
        error "home got a cache message";
      endswitch;
    else
      -- A cache at node n = m.dst: cache_transition() in protocol_cache.cpp.
      n := m.dst;
      switch m.mtype
      case ReadReply:
        cover "cache: ReadReply" true;
        assert (cstate[n] = CI) "ReadReply with a copy held";
        ReadValue(n, m.cur);
        cstate[n] := CS; ccur[n] := m.cur; want[n] := WNone;
      case WriteReply:
        cover "cache: WriteReply" true;
        assert (cstate[n] != CM) "WriteReply while Modified";
        cstate[n] := CM; ccur[n] := m.cur; locked[n] := true;
      case StoreAck:
        cover "cache: StoreAck" true;
        assert (storing[n]) "StoreAck with no store";
        storing[n] := false;
      case Nack:
        -- cache_transition() sets retry; Engine::serve() re-checks the entry, then resends. The
        -- re-check cannot find the access possible: a copy arrives only with the reply to the
        -- node's one request, and that request is the one refused.
        if m.nacked = StoreReq then  -- the store is resent (run_deferred(), kStore)
          cover "cache: Nack of a store, resent" true;
          assert (storing[n]) "store Nack with no store";
          Send(StoreReq, n, 0, false, ReadReq);
        elsif want[n] = WRead then
          cover "cache: Nack of a read, resent" true;
          if cstate[n] != CI then
            error "unreachable: the re-check after a Nack finds a copy";
          endif;
          Send(ReadReq, n, 0, false, ReadReq);
        elsif want[n] = WWrite then
          cover "cache: Nack of a write, resent" true;
          if cstate[n] = CM then error "unreachable: the re-check after a Nack finds a copy"; endif;
          Send(WriteReq, n, 0, false, ReadReq);
        else
          error "Nack with no request";
        endif;
      case Inval:
        assert (cstate[n] != CM) "Inval while Modified";
        if cstate[n] = CI then
          cover "cache: Inval before its ReadReply, RemoteNack" true;
          Send(RemoteNack, n, 0, false, Inval);
        else
          cover "cache: Inval of a Shared copy, InvalAck" true;
          cstate[n] := CI; ccur[n] := false; Send(InvalAck, n, 0, false, ReadReq);
        endif;
      case Flush, FlushInval:
        if cstate[n] != CM then
          if m.mtype = Flush then cover "cache: Flush before its WriteReply, RemoteNack" true;
          else cover "cache: FlushInval before its WriteReply, RemoteNack" true; endif;
          Send(RemoteNack, n, 0, false, m.mtype);
        elsif locked[n] then
          if m.mtype = Flush then cover "cache: Flush under the write lock, RemoteNack" true;
          else cover "cache: FlushInval under the write lock, RemoteNack" true; endif;
          Send(RemoteNack, n, 0, false, m.mtype);
        else
          Send(FlushData, n, 0, ccur[n], ReadReq);
          if m.mtype = Flush then cover "cache: Flush, FlushData, keeps Shared" true;
            cstate[n] := CS;
          else cover "cache: FlushInval, FlushData, drops its copy" true;
            cstate[n] := CI; ccur[n] := false; endif;
        endif;
      else
        error "cache got a home message";
      endswitch;
    endif;
  end;
endruleset;

invariant "single writer or many readers"
  forall p: Proc do forall q: Proc do
    (p != q & cstate[p] = CM) -> cstate[q] = CI
  endforall endforall;

invariant "no reader beside a writer at the home"
  forall p: Proc do
    cstate[p] = CM -> !(hstate = HS | (hstate = HM & owner = 0))
  endforall;

invariant "no copy beside the home as writer"
  HomeHit(true) -> forall p: Proc do cstate[p] = CI endforall;

invariant "every valid copy holds the last written value"
  forall p: Proc do cstate[p] != CI -> ccur[p] endforall;

invariant "what the home reads is the last written value"
  HomeHit(false) -> memcur;

invariant "an access completes only once performed"
  (hwant = WNone -> pending[0] = WNone) &
  forall p: Proc do
    (want[p] = WNone -> pending[p] = WNone) & (!storing[p] -> !spending[p])
  endforall;

invariant "the write lock keeps a granted block"
  (forall p: Proc do locked[p] -> cstate[p] = CM endforall) &
  (hgranted -> HomeHit(true));

invariant "Shared has a sharer"
  hstate = HS -> !NoSharers();

invariant "the home's sharers are exactly the copies it accounts for"
  forall p: Proc do sharers[p] = SharerAccounted(p) endforall;

liveness "every request can complete"
  hwant = WNone & forall p: Proc do want[p] = WNone & !storing[p] endforall;

liveness "the home returns to a stable state"
  hstate = HS | hstate = HM;
