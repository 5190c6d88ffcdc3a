-- Run in a real Lua Torch7 what nn_legacy.save_lua wrote (driven by tools/torch7_check.py).
-- usage: luajit torch7_check.lua DIR [package ...]
-- Loads the listed packages (nn, nngraph, rnn...), then every DIR/<case>.in.t7, a table
-- {model=<module or criterion>, input=<tensor or table>, target=<for a criterion>,
-- gradOutput=<for a module>, evaluate=<boolean or nil>}; calls model:forward(input), then
-- model:backward(input, gradOutput or target), and writes DIR/<case>.out.t7 = {output=..., gradInput=...},
-- or {error=<message>} when loading, forward or backward failed.
require 'torch'
local dir = assert(arg[1], 'usage: luajit torch7_check.lua DIR [package ...]')
for i = 2, #arg do require(arg[i]) end
torch.setdefaulttensortype('torch.DoubleTensor')

local function run(path)
   local case = torch.load(path)
   local model = case.model
   if model.training then   -- (a criterion has neither)
      if case.evaluate then model:evaluate() else model:training() end
   end
   local out, gradInput
   if case.target ~= nil then
      out = model:forward(case.input, case.target)
      gradInput = model:backward(case.input, case.target)
   else
      out = model:forward(case.input)
      if case.gradOutput ~= nil then gradInput = model:backward(case.input, case.gradOutput) end
   end
   return {output = out, gradInput = gradInput}
end

local n = 0
for file in paths.iterfiles(dir) do
   local name = file:match('^(.*)%.in%.t7$')
   if name then
      n = n + 1
      local ok, result = pcall(run, paths.concat(dir, file))
      local record
      if ok then record = result else record = {error = tostring(result)} end
      torch.save(paths.concat(dir, name .. '.out.t7'), record)
      print(string.format('%-40s %s', name, ok and 'ran' or ('FAILED: ' .. tostring(result))))
   end
end
print(string.format('%d cases', n))
