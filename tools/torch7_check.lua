-- Run in a real Lua Torch7 what nn_legacy.save_lua wrote (driven by tools/torch7_check.py).
-- usage: luajit torch7_check.lua DIR [package ...]
-- Loads the listed packages (nn, nngraph, rnn...), then every DIR/<case>.in.t7, a table
-- {model=<module or criterion>, input=<tensor or table>, target=<for a criterion>, criterion=<true for one>,
-- gradOutput=<for a module>, evaluate=<boolean or nil>, forward_only=<true: no backward>}; calls model:forward(input), then
-- model:backward(input, gradOutput or target), and writes DIR/<case>.out.t7 = {output=..., gradInput=...},
-- or {error=<message>} when loading, forward or backward failed.  A case whose .out.t7 exists is skipped
-- (the driver reruns this script after a crash, having written the crashed case's record itself).
require 'torch'
local dir = assert(arg[1], 'usage: luajit torch7_check.lua DIR [package ...]')
for i = 2, #arg do require(arg[i]) end
torch.setdefaulttensortype('torch.DoubleTensor')

local function clone(v)   -- (an in-place module's output is its input, which its backward changes again)
   if torch.isTensor(v) then return v:clone() end
   if type(v) == 'table' then
      local t = {}
      for k, x in pairs(v) do t[k] = clone(x) end
      return t
   end
   return v
end

local function run(path)
   local case = torch.load(path)
   local model = case.model
   if model.training then   -- (a criterion has neither)
      if case.evaluate then model:evaluate() else model:training() end
   end
   local out, gradInput
   if case.target ~= nil or case.criterion then
      out = clone(model:forward(case.input, case.target))
      if not case.forward_only then gradInput = model:backward(case.input, case.target) end
   else
      out = clone(model:forward(case.input))
      if case.gradOutput ~= nil then gradInput = model:backward(case.input, case.gradOutput) end
   end
   if out == nil then out = clone(model.output) end   -- (the rnn packages' Reinforce:updateOutput returns nothing)
   return {output = out, gradInput = gradInput}
end

local names = {}
for file in paths.iterfiles(dir) do
   local name = file:match('^(.*)%.in%.t7$')
   if name then names[#names + 1] = name end
end
table.sort(names)
local n = 0
for _, name in ipairs(names) do
   local out = paths.concat(dir, name .. '.out.t7')
   if not paths.filep(out) then
      n = n + 1
      io.stdout:write('START ' .. name .. '\n')
      io.stdout:flush()
      local ok, result = pcall(run, paths.concat(dir, name .. '.in.t7'))
      local record
      if ok then record = result else record = {error = tostring(result)} end
      local saved, problem = pcall(torch.save, out, record)
      if not saved then torch.save(out, {error = 'torch.save of the result: ' .. tostring(problem)}) end
      print(string.format('%-40s %s', name, ok and 'ran' or ('FAILED: ' .. tostring(result))))
   end
end
print(string.format('%d cases', n))
