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
--                                         Engine::try_write() with its silent upgrade of Shared
--                                         without sharers to Modified by the home
--   rule "HomeApplyLockedWrite"       <-> Engine::write_miss() at the home after the grant: the
--                                         loop's try_write() writes the value (or, were the
--                                         block gone, enqueues again); write_lock_ drops
--   rule "Deliver", m.dst = n > 0 (a cache), by message:
--     ReadReply / WriteReply / StoreAck / Inval / Flush / FlushInval
--                                     <-> cache_transition()                  (protocol_cache.cpp)
--     Nack                            <-> cache_transition() (retry) and then Engine::serve():
--                                         re-check the entry, resend          (engine.cpp)
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
--
-- Properties. Safety: "single writer or many readers" between caches, and with the home as
-- reader ("no reader beside a writer at the home") or as writer ("no copy beside the home as
-- writer"); "every valid copy holds the last written value"; "the write lock keeps a granted
-- block": from the grant of a blocking write until its value is written, the writer (a cache or
-- the home) keeps the block. The C++ write_miss() loop would re-request a block taken in that
-- window, so a broken write lock only starves writers, which liveness (below) cannot see; this
-- invariant states what the lock is for. "The home's sharers are exactly the copies it accounts
-- for": the sharer set is a function of the copies and the messages in flight (SharerAccounted),
-- so a bookkeeping error is caught where it is made, even one that no copy or request ever
-- notices (finish() clears the set, or no rule reads it before it is cleared). Liveness (rumur:
-- from every reachable state some path reaches the goal): "every request can complete", "the home
-- returns to a stable state". The asserts are the impossible cells (ProtocolError) of the C++
-- tables, where the model reaches them.
--
-- What the model leaves out: reads that hit (no state change); the NACK backoff of
-- Engine::serve() / run_deferred() and of the home's Inval/Flush resends (a delay only: the
-- model resends at once and the network may hold the message as long as it likes; the re-check
-- after the backoff is matched by the resent request being answered at once); split-phase
-- get/put (a put writes its value inside serve(), at the grant, without the write lock); more
-- than one outstanding access per node (a store beside a read or write of the same node, or
-- several accesses riding on one request). Shared without sharers at the home is not reachable
-- (no copy is dropped silently), so the silent upgrade is modelled but never fires here.
const
  NPROC: 2;
  NETMAX: 5;    -- in flight at once: per cache its request chain and its Inval/Flush chain,
                -- plus the home's own request chain (4 are reached; Send reports "network full")
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
    hstate := HS; owner := 0;
    if preq != 0 then sharers[preq] := true; endif;
    Send(ReadReply, 0, preq, preq != 0 & memcur, ReadReq);
  elsif pkind = WWrite then
    hstate := HM; owner := preq;
    for p: Proc do sharers[p] := false; endfor;
    Send(WriteReply, 0, preq, preq != 0 & memcur, ReadReq);
  else
    Wrote(); memcur := true;
    hstate := HM; owner := 0;
    for p: Proc do sharers[p] := false; endfor;
    Send(StoreAck, 0, preq, false, ReadReq);
  endif;
  pkind := WNone; preq := 0; waitflush := false;
end;

-- Engine::serve() for the home's own request: re-check, complete or resend.
procedure HomeServe();
begin
  if hwant = WRead then
    if HomeHit(false) then hwant := WNone; else Send(ReadReq, 0, 0, false, ReadReq); endif;
  elsif hwant = WWrite then
    assert (!hgranted) "home reply with its write already granted";
    if HomeHit(true) then
      if hstate = HS then hstate := HM; owner := 0; endif;
      hgranted := true;
    else
      Send(WriteReq, 0, 0, false, ReadReq);
    endif;
  else
    error "home reply with no request";
  endif;
end;

startstate
begin
  hstate := HM; owner := 0; waitflush := false; pkind := WNone; preq := 0; acks := 0;
  memcur := true; hwant := WNone; hgranted := false;
  for p: Proc do
    sharers[p] := false; cstate[p] := CI; ccur[p] := false; want[p] := WNone;
    locked[p] := false;
  endfor;
  nmsg := 0;
  for k: Slot do undefine net[k]; endfor;
end;

-- The requester side at the caches (engine.cpp): Issue* <-> cache_access() + Engine::enqueue()
-- / store().
ruleset p: Proc do
  rule "IssueRead" want[p] = WNone & cstate[p] = CI ==>
  begin want[p] := WRead; Send(ReadReq, p, 0, false, ReadReq); end;

  rule "IssueWrite" want[p] = WNone & cstate[p] != CM ==>
  begin want[p] := WWrite; Send(WriteReq, p, 0, false, ReadReq); end;

  rule "WriteHit" want[p] = WNone & cstate[p] = CM ==>
  begin Wrote(); ccur[p] := true; end;

  rule "IssueStore" want[p] = WNone ==>
  begin want[p] := WStore; Send(StoreReq, p, 0, false, ReadReq); end;

  rule "ApplyLockedWrite" locked[p] ==>
  begin
    locked[p] := false;
    if cstate[p] = CM then
      Wrote(); ccur[p] := true; want[p] := WNone;
    else
      Send(WriteReq, p, 0, false, ReadReq);
    endif;
  end;
endruleset;

-- The home as a requester of its own block (engine.cpp, requester == home).
rule "HomeWriteHit" hwant = WNone & HomeHit(true) ==>
begin
  if hstate = HS then hstate := HM; owner := 0; endif;
  Wrote(); memcur := true;
end;

rule "HomeIssueRead" hwant = WNone & !HomeHit(false) ==>
begin hwant := WRead; Send(ReadReq, 0, 0, false, ReadReq); end;

rule "HomeIssueWrite" hwant = WNone & !HomeHit(true) ==>
begin hwant := WWrite; Send(WriteReq, 0, 0, false, ReadReq); end;

rule "HomeIssueStore" hwant = WNone & !HomeHit(true) ==>
begin hwant := WStore; Send(StoreReq, 0, 0, false, ReadReq); end;

rule "HomeApplyLockedWrite" hgranted ==>
begin
  hgranted := false;
  if HomeHit(true) then
    if hstate = HS then hstate := HM; owner := 0; endif;
    Wrote(); memcur := true; hwant := WNone;
  else
    Send(WriteReq, 0, 0, false, ReadReq);
  endif;
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
          Send(Nack, 0, s, false, m.mtype);
        elsif HomeWriteLocked() & s != 0 then
          Send(Nack, 0, s, false, m.mtype);
        elsif m.mtype = ReadReq then
          if hstate = HM & owner = 0 then
            if s != 0 then hstate := HS; sharers[s] := true; endif;
            Send(ReadReply, 0, s, s != 0 & memcur, ReadReq);
          elsif hstate = HM & owner = s then
            Send(Nack, 0, s, false, ReadReq);
          elsif hstate = HM then
            hstate := HBR; waitflush := true; pkind := WRead; preq := s;
            Send(Flush, 0, owner, false, ReadReq);
          elsif s = 0 then
            Send(ReadReply, 0, 0, false, ReadReq);
          elsif sharers[s] then
            Send(Nack, 0, s, false, ReadReq);
          else
            sharers[s] := true; Send(ReadReply, 0, s, memcur, ReadReq);
          endif;
        elsif m.mtype = WriteReq then
          if hstate = HM & owner = 0 then
            owner := s; Send(WriteReply, 0, s, s != 0 & memcur, ReadReq);
          elsif hstate = HM & owner = s then
            Send(Nack, 0, s, false, WriteReq);
          elsif hstate = HM then
            hstate := HBW; waitflush := true; pkind := WWrite; preq := s;
            Send(FlushInval, 0, owner, false, ReadReq);
          else
            if s != 0 then sharers[s] := false; endif;
            n := 0;
            for q: Proc do if sharers[q] then n := n + 1; endif; endfor;
            if n = 0 then
              hstate := HM; owner := s; Send(WriteReply, 0, s, s != 0 & memcur, ReadReq);
            else
              hstate := HBW; waitflush := false; pkind := WWrite; preq := s; acks := n;
              for q: Proc do if sharers[q] then Send(Inval, 0, q, false, ReadReq); endif; endfor;
            endif;
          endif;
        else -- StoreReq: the payload is written when the store is applied (a new value)
          if hstate = HM & owner = 0 then
            Wrote(); memcur := true; Send(StoreAck, 0, s, false, ReadReq);
          elsif hstate = HM then
            hstate := HBW; waitflush := true; pkind := WStore; preq := s;
            Send(FlushInval, 0, owner, false, ReadReq);
          else
            n := 0;
            for q: Proc do if sharers[q] then n := n + 1; endif; endfor;
            if n = 0 then
              Wrote(); memcur := true; hstate := HM; owner := 0;
              Send(StoreAck, 0, s, false, ReadReq);
            else
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
        if acks = 0 then Finish(); endif;
      case FlushData:
        assert ((hstate = HBR | hstate = HBW) & waitflush & owner = s) "impossible FlushData";
        memcur := m.cur;
        if hstate = HBR then
          for q: Proc do sharers[q] := false; endfor;
          Finish();
          sharers[s] := true;
        else
          Finish();
        endif;
      case RemoteNack:
        if m.nacked = Inval then
          assert (hstate = HBW & !waitflush & s != 0) "impossible RemoteNack";
          assert (sharers[s]) "impossible RemoteNack";
        else
          assert ((hstate = HBR | hstate = HBW) & waitflush & owner = s) "impossible RemoteNack";
          assert ((hstate = HBR) = (m.nacked = Flush)) "impossible RemoteNack";
        endif;
        Send(m.nacked, 0, s, false, ReadReq);
      -- The home as requester: Engine::on_requester().
      case ReadReply, WriteReply:
        assert (s = 0) "home got a cache message";
        HomeServe();
      case Nack:
        assert (s = 0) "home got a cache message";
        if m.nacked = StoreReq then  -- resend the refused store (after the backoff)
          assert (hwant = WStore) "home store Nack with no store";
          Send(StoreReq, 0, 0, false, ReadReq);
        else
          HomeServe();
        endif;
      case StoreAck:
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
        assert (cstate[n] = CI) "ReadReply with a copy held";
        cstate[n] := CS; ccur[n] := m.cur; want[n] := WNone;
      case WriteReply:
        assert (cstate[n] != CM) "WriteReply while Modified";
        cstate[n] := CM; ccur[n] := m.cur; locked[n] := true;
      case StoreAck:
        want[n] := WNone;
      case Nack:
        -- cache_transition() sets retry; Engine::serve() re-checks the entry, then resends
        if want[n] = WRead then
          if cstate[n] != CI then want[n] := WNone;
          else Send(ReadReq, n, 0, false, ReadReq); endif;
        elsif want[n] = WWrite then
          Send(WriteReq, n, 0, false, ReadReq);
        elsif want[n] = WStore then
          Send(StoreReq, n, 0, false, ReadReq);
        else
          error "Nack with no request";
        endif;
      case Inval:
        assert (cstate[n] != CM) "Inval while Modified";
        if cstate[n] = CI then
          Send(RemoteNack, n, 0, false, Inval);
        else
          cstate[n] := CI; ccur[n] := false; Send(InvalAck, n, 0, false, ReadReq);
        endif;
      case Flush, FlushInval:
        if cstate[n] != CM | locked[n] then
          Send(RemoteNack, n, 0, false, m.mtype);
        else
          Send(FlushData, n, 0, ccur[n], ReadReq);
          if m.mtype = Flush then cstate[n] := CS; else cstate[n] := CI; ccur[n] := false; endif;
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
  (forall p: Proc do cstate[p] != CI -> ccur[p] endforall) &
  ((hstate = HS | (hstate = HM & owner = 0)) -> memcur);

invariant "the write lock keeps a granted block"
  (forall p: Proc do locked[p] -> cstate[p] = CM endforall) &
  (hgranted -> HomeHit(true));

invariant "the home's sharers are exactly the copies it accounts for"
  forall p: Proc do sharers[p] = SharerAccounted(p) endforall;

liveness "every request can complete"
  hwant = WNone & forall p: Proc do want[p] = WNone endforall;

liveness "the home returns to a stable state"
  hstate = HS | hstate = HM;
