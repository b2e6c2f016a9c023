-- Murphi model of the swcc MSI protocol for one block: the home (node 0) and NPROC caches over
-- an unordered network. It follows the C++ transition tables; when one changes, the other does.
-- Checked with rumur by tests/swcc/check_model.sh, which also checks that every seeded bug in
-- bugs/bugs.txt is caught.
--
-- Correspondence (Murphi rule, branch or procedure  <->  C++ function):
--   rule "Deliver", m.dst = 0 (the home), by message:
--     ReadReq / WriteReq / StoreReq   <-> home_transition() -> on_request()  (protocol_home.cpp)
--     InvalAck                        <-> home_transition(), case kInvalAck
--     FlushData                       <-> home_transition(), case kFlushData
--     RemoteNack                      <-> home_transition(), case kRemoteNack
--   procedure Finish                  <-> finish()                            (protocol_home.cpp)
--   rule "Deliver", m.dst = n > 0 (a cache), by message:
--     ReadReply / WriteReply / StoreAck / Inval / Flush / FlushInval
--                                     <-> cache_transition()                  (protocol_cache.cpp)
--     Nack                            <-> cache_transition() (retry) and then Engine::serve():
--                                         re-check the entry, resend          (engine.cpp)
--   rules "IssueRead", "IssueWrite"   <-> cache_access() answering kSendRead / kSendWrite, then
--                                         Engine::enqueue() (one request per block and node)
--   rule "IssueStore"                 <-> Engine::store()
--   rule "WriteHit"                   <-> cache_access(Modified, kWrite) == kHit (Dsm::hit_write)
--   rule "ApplyLockedWrite"           <-> Engine::write_miss(): the value is applied after the
--                                         grant, then the write-lock flag (write_lock_) drops
--   rule "HomeWriteHit"               <-> home_access() == kHit for a write with the home owning
--                                         the block (Dsm::writable, Engine::try_write)
-- What the model leaves out: the home's own requests (requester == home in the C++: the home
-- only writes while it owns the block, rule "HomeWriteHit"), the home's write-lock flag
-- (HomeEvent::write_locked), the silent Shared-without-sharers -> Modified upgrade of
-- Engine::try_write at the home, reads that hit (no state change), and the NACK backoff of
-- Engine::serve() (a delay only). The model's asserts are the impossible cells
-- (ProtocolError) of the C++ tables, where the model reaches them.
const
  NPROC: 2;
  NVAL: 2;
  NETMAX: 8;

type
  Proc: 1..NPROC;
  Node: 0..NPROC;
  Val: 0..NVAL;
  CState: enum {CI, CS, CM};
  HState: enum {HS, HM, HBR, HBW};
  Want: enum {WNone, WRead, WWrite, WStore};
  MType: enum {ReadReq, WriteReq, StoreReq, ReadReply, WriteReply, StoreAck, Nack,
               Inval, Flush, FlushInval, InvalAck, FlushData, RemoteNack};
  Slot: 0..NETMAX-1;
  Msg: record mtype: MType; src: Node; dst: Node; val: Val; nacked: MType; end;

var
  hstate: HState;
  sharers: array [Proc] of boolean;   -- HS: read copies; HBW from HS: acks awaited
  owner: Node;                        -- HM/HBR/HBW-after-flush: holder (0: home itself)
  waitflush: boolean;                 -- busy state waits for FlushData (else for acks)
  pkind: Want;
  preq: Node;
  acks: 0..NPROC;
  pstore: Val;
  mem: Val;
  cstate: array [Proc] of CState;
  cdata: array [Proc] of Val;
  want: array [Proc] of Want;
  wval: array [Proc] of Val;
  locked: array [Proc] of boolean;
  net: array [Slot] of Msg;           -- the unordered network: any valid slot may arrive next
  inuse: array [Slot] of boolean;
  last: Val;                          -- ghost: the last value written

procedure Send(t: MType; s: Node; d: Node; v: Val; n: MType);
var m: Msg;
begin
  m.mtype := t; m.src := s; m.dst := d; m.val := v; m.nacked := n;
  for k: Slot do
    if !inuse[k] then net[k] := m; inuse[k] := true; return; endif;
  endfor;
  error "network full";
end;

procedure Finish();
begin
  if pkind = WRead then
    hstate := HS;
    if preq != 0 then sharers[preq] := true; endif;
    Send(ReadReply, 0, preq, mem, ReadReq);
  elsif pkind = WWrite then
    hstate := HM; owner := preq;
    for p: Proc do sharers[p] := false; endfor;
    Send(WriteReply, 0, preq, mem, ReadReq);
  else
    mem := pstore; last := pstore;
    hstate := HM; owner := 0;
    for p: Proc do sharers[p] := false; endfor;
    Send(StoreAck, 0, preq, 0, ReadReq);
  endif;
  pkind := WNone; waitflush := false;
end;

startstate
begin
  hstate := HM; owner := 0; waitflush := false; pkind := WNone; preq := 0; acks := 0;
  pstore := 0; mem := 0; last := 0;
  for p: Proc do
    sharers[p] := false; cstate[p] := CI; cdata[p] := 0; want[p] := WNone; wval[p] := 0;
    locked[p] := false;
  endfor;
  for k: Slot do inuse[k] := false; undefine net[k]; endfor;
end;

-- The requester side (engine.cpp): Issue* <-> cache_access() + Engine::enqueue()/store().
ruleset p: Proc; v: 1..NVAL do
  rule "IssueRead" want[p] = WNone & cstate[p] = CI ==>
  begin want[p] := WRead; Send(ReadReq, p, 0, 0, ReadReq); end;

  rule "IssueWrite" want[p] = WNone & cstate[p] != CM ==>
  begin want[p] := WWrite; wval[p] := v; Send(WriteReq, p, 0, 0, ReadReq); end;

  rule "WriteHit" want[p] = WNone & cstate[p] = CM ==>
  begin cdata[p] := v; last := v; end;

  rule "IssueStore" want[p] = WNone ==>
  begin want[p] := WStore; wval[p] := v; Send(StoreReq, p, 0, v, ReadReq); end;
endruleset;

ruleset p: Proc do
  rule "ApplyLockedWrite" locked[p] ==>
  begin
    cdata[p] := wval[p]; last := wval[p]; locked[p] := false; want[p] := WNone;
  end;
endruleset;

ruleset v: 1..NVAL do
  rule "HomeWriteHit" hstate = HM & owner = 0 ==>
  begin mem := v; last := v; end;
endruleset;

-- Message delivery in any order.
ruleset i: Slot do
  rule "Deliver" inuse[i]
  ==>
  var m: Msg; s: Node; n: 0..NPROC;
  begin
    m := net[i];
    inuse[i] := false; undefine net[i];
    s := m.src;
    if m.dst = 0 then
      -- The home: home_transition() in protocol_home.cpp.
      switch m.mtype
      case ReadReq, WriteReq, StoreReq:
        -- on_request(): busy -> Nack; then by request type and stable state
        if hstate = HBR | hstate = HBW then
          Send(Nack, 0, s, 0, m.mtype);
        elsif m.mtype = ReadReq then
          if hstate = HM & owner = 0 then
            hstate := HS; sharers[s] := true; Send(ReadReply, 0, s, mem, ReadReq);
          elsif hstate = HM & owner = s then
            Send(Nack, 0, s, 0, ReadReq);
          elsif hstate = HM then
            hstate := HBR; waitflush := true; pkind := WRead; preq := s;
            Send(Flush, 0, owner, 0, ReadReq);
          elsif sharers[s] then
            Send(Nack, 0, s, 0, ReadReq);
          else
            sharers[s] := true; Send(ReadReply, 0, s, mem, ReadReq);
          endif;
        elsif m.mtype = WriteReq then
          if hstate = HM & owner = 0 then
            owner := s; Send(WriteReply, 0, s, mem, ReadReq);
          elsif hstate = HM & owner = s then
            Send(Nack, 0, s, 0, WriteReq);
          elsif hstate = HM then
            hstate := HBW; waitflush := true; pkind := WWrite; preq := s;
            Send(FlushInval, 0, owner, 0, ReadReq);
          else
            sharers[s] := false;
            n := 0;
            for q: Proc do if sharers[q] then n := n + 1; endif; endfor;
            if n = 0 then
              hstate := HM; owner := s; Send(WriteReply, 0, s, mem, ReadReq);
            else
              hstate := HBW; waitflush := false; pkind := WWrite; preq := s; acks := n;
              for q: Proc do if sharers[q] then Send(Inval, 0, q, 0, ReadReq); endif; endfor;
            endif;
          endif;
        else -- StoreReq
          if hstate = HM & owner = 0 then
            mem := m.val; last := m.val; Send(StoreAck, 0, s, 0, ReadReq);
          elsif hstate = HM then
            hstate := HBW; waitflush := true; pkind := WStore; preq := s; pstore := m.val;
            Send(FlushInval, 0, owner, 0, ReadReq);
          else
            n := 0;
            for q: Proc do if sharers[q] then n := n + 1; endif; endfor;
            if n = 0 then
              mem := m.val; last := m.val; hstate := HM; owner := 0;
              Send(StoreAck, 0, s, 0, ReadReq);
            else
              hstate := HBW; waitflush := false; pkind := WStore; preq := s; pstore := m.val;
              acks := n;
              for q: Proc do if sharers[q] then Send(Inval, 0, q, 0, ReadReq); endif; endfor;
            endif;
          endif;
        endif;
      case InvalAck:
        assert (hstate = HBW & !waitflush & sharers[s] & acks > 0) "impossible InvalAck";
        sharers[s] := false;
        acks := acks - 1;
        if acks = 0 then Finish(); endif;
      case FlushData:
        assert ((hstate = HBR | hstate = HBW) & waitflush & owner = s) "impossible FlushData";
        mem := m.val;
        if hstate = HBR then
          for q: Proc do sharers[q] := false; endfor;
          Finish();
          sharers[s] := true;
        else
          Finish();
        endif;
      case RemoteNack:
        assert (hstate = HBR | hstate = HBW) "impossible RemoteNack";
        Send(m.nacked, 0, s, 0, ReadReq);
      else
        error "home got a cache message";
      endswitch;
    else
      -- A cache at node n = m.dst: cache_transition() in protocol_cache.cpp.
      n := m.dst;
      switch m.mtype
      case ReadReply:
        assert (cstate[n] = CI) "ReadReply with a copy held";
        cstate[n] := CS; cdata[n] := m.val; want[n] := WNone;
      case WriteReply:
        assert (cstate[n] != CM) "WriteReply while Modified";
        cstate[n] := CM; cdata[n] := m.val; locked[n] := true;
      case StoreAck:
        want[n] := WNone;
      case Nack:
        -- cache_transition() sets retry; Engine::serve() re-checks the entry, then resends
        if want[n] = WRead then
          if cstate[n] != CI then want[n] := WNone; else Send(ReadReq, n, 0, 0, ReadReq); endif;
        elsif want[n] = WWrite then
          Send(WriteReq, n, 0, 0, ReadReq);
        else
          Send(StoreReq, n, 0, wval[n], ReadReq);
        endif;
      case Inval:
        assert (cstate[n] != CM) "Inval while Modified";
        if cstate[n] = CI then
          Send(RemoteNack, n, 0, 0, Inval);
        else
          cstate[n] := CI; Send(InvalAck, n, 0, 0, ReadReq);
        endif;
      case Flush, FlushInval:
        if cstate[n] != CM | locked[n] then
          Send(RemoteNack, n, 0, 0, m.mtype);
        else
          Send(FlushData, n, 0, cdata[n], ReadReq);
          if m.mtype = Flush then cstate[n] := CS; else cstate[n] := CI; endif;
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

invariant "every valid copy holds the last written value"
  (forall p: Proc do cstate[p] != CI -> cdata[p] = last endforall) &
  ((hstate = HS | (hstate = HM & owner = 0)) -> mem = last);

liveness "every request can complete"
  forall p: Proc do want[p] = WNone endforall;

liveness "the home returns to a stable state"
  hstate = HS | hstate = HM;
