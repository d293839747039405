-- Argo CD health of every fundshare-operator kind (invest.fundshare.io), read from the
-- kstatus conditions the controllers set on each (Ready, Reconciling, Stalled; see
-- docs/monitoring.md): the same answer kstatus gives Flux, kpt and kubectl wait, and
-- Progressing, not Healthy, before a controller has reported on the object's generation.
local hs = {}
if obj.metadata ~= nil and obj.metadata.deletionTimestamp ~= nil then
  hs.status = "Progressing"
  hs.message = "being deleted"
  return hs
end
-- Kinds without conditions: records and catalogue entries no controller reports on are
-- Healthy once they exist (as kstatus reads them: Current); a DeliveryBatch by its phase.
if obj.kind == "Fund" or obj.kind == "NAVHistory" or obj.kind == "CustomOffering" or obj.kind == "Transfer" then
  hs.status = "Healthy"
  hs.message = obj.kind .. " has no status to wait for"
  return hs
end
if obj.kind == "DeliveryBatch" then
  local phase = nil
  if obj.status ~= nil then
    phase = obj.status.phase
  end
  if phase == "Completed" or phase == "Abandoned" then
    hs.status = "Healthy"
  elseif phase == "Reverted" then
    hs.status = "Degraded"
  else
    hs.status = "Progressing"
  end
  hs.message = "batch " .. (phase or "Claiming")
  return hs
end
-- A Dealing by its phase: open or past its cut-off it waits for its NAV (Progressing);
-- struck or settled it is done (Healthy); without a phase the strike controller could
-- not place it (no forward-priced share class, no calendar for its date): Degraded.
if obj.kind == "Dealing" then
  local phase = nil
  local message = nil
  if obj.status ~= nil then
    phase = obj.status.phase
    message = obj.status.message
  end
  if phase == "Struck" or phase == "Settled" then
    hs.status = "Healthy"
  elseif phase == "Open" or phase == "CutOff" then
    hs.status = "Progressing"
  elseif message ~= nil and message ~= "" then
    hs.status = "Degraded"
  else
    hs.status = "Progressing"
  end
  hs.message = "dealing " .. (phase or "not placed")
  if message ~= nil and message ~= "" then
    hs.message = hs.message .. ": " .. message
  end
  return hs
end
-- A MatchingWindow by its phase: open (orders are taken) or matching (fills being written)
-- it is on its way (Progressing); matched or settled it is done (Healthy); without a phase
-- the window controller could not place it (no share class with a secondary market, no
-- window of its calendar on its date): Degraded.
if obj.kind == "MatchingWindow" then
  local phase = nil
  local message = nil
  if obj.status ~= nil then
    phase = obj.status.phase
    message = obj.status.message
  end
  if phase == "Matched" or phase == "Settled" then
    hs.status = "Healthy"
  elseif phase == "Open" or phase == "Matching" then
    hs.status = "Progressing"
  elseif message ~= nil and message ~= "" then
    hs.status = "Degraded"
  else
    hs.status = "Progressing"
  end
  hs.message = "window " .. (phase or "not placed")
  if message ~= nil and message ~= "" then
    hs.message = hs.message .. ": " .. message
  end
  return hs
end
-- A BankDecision by its phase: recorded in the bank ledger it is done (Healthy; a refund
-- that the bank rejected or that came back is Degraded: a person sends it by hand);
-- refused it never will be (Degraded, with the reason); without a phase the leader has
-- not taken it yet (Progressing).
if obj.kind == "BankDecision" then
  local st = obj.status or {}
  local payout = nil
  if st.payout ~= nil then
    payout = st.payout.status
  end
  if st.phase == "Refused" then
    hs.status = "Degraded"
  elseif st.phase == "Recorded" and (payout == "Rejected" or payout == "Returned") then
    hs.status = "Degraded"
  elseif st.phase == "Recorded" then
    hs.status = "Healthy"
  else
    hs.status = "Progressing"
  end
  hs.message = "decision " .. (st.phase or "not taken yet")
  if st.message ~= nil and st.message ~= "" then
    hs.message = hs.message .. ": " .. st.message
  end
  return hs
end
-- A WebhookEndpoint by what the dispatcher wrote (no conditions; kstatus reads it Current):
-- disabled by the service (it answered 410, or failed for 5 days) or failing now: Degraded.
if obj.kind == "WebhookEndpoint" then
  local st = obj.status or {}
  if st.disabledBy ~= nil then
    hs.status = "Degraded"
    hs.message = "disabled by the service (" .. (st.disabledBy.reason or "") .. "): " .. (st.disabledBy.message or "")
  elseif st.failingSince ~= nil then
    hs.status = "Degraded"
    hs.message = "deliveries failing since " .. st.failingSince
  elseif obj.spec ~= nil and obj.spec.disabled then
    hs.status = "Healthy"
    hs.message = "disabled by its owner"
  else
    hs.status = "Healthy"
    hs.message = "delivering"
  end
  return hs
end
local gen = nil
if obj.metadata ~= nil then
  gen = obj.metadata.generation
end
if obj.status == nil or obj.status.conditions == nil then
  hs.status = "Progressing"
  hs.message = "waiting for the controller to report a status"
  return hs
end
if gen ~= nil and obj.status.observedGeneration ~= nil and obj.status.observedGeneration < gen then
  hs.status = "Progressing"
  hs.message = "waiting for the controller to observe generation " .. gen
  return hs
end
local ready, reconciling, stalled = nil, nil, nil
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Ready" then
    ready = c
  elseif c.type == "Reconciling" then
    reconciling = c
  elseif c.type == "Stalled" then
    stalled = c
  end
end
local function text(c)
  local m = c.reason or ""
  if c.message ~= nil and c.message ~= "" then
    m = m .. ": " .. c.message
  end
  return m
end
if ready == nil then
  hs.status = "Progressing"
  hs.message = "waiting for the controller to report a status"
  return hs
end
if gen ~= nil and ready.observedGeneration ~= nil and ready.observedGeneration < gen then
  hs.status = "Progressing"
  hs.message = "waiting for the controller to observe generation " .. gen
  return hs
end
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = text(stalled)
  return hs
end
if reconciling ~= nil and reconciling.status == "True" then
  hs.status = "Progressing"
  hs.message = text(reconciling)
  return hs
end
if ready.status == "True" then
  hs.status = "Healthy"
  hs.message = text(ready)
  return hs
end
hs.status = "Progressing"
hs.message = text(ready)
return hs
