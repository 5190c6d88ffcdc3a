-- Run torch/rnn's nn.BiSequencer files written by nn_legacy.save_lua (driven by tools/bisequencer_lua_check.py).
-- usage: luajit bisequencer_lua_check.lua DIR
-- For every DIR/<case>.in.t7 = {model=..., input=..., gradOutput=...}: forward, backward (after
-- zeroGradParameters), the parameters' gradients, then updateParameters(0.1) and a second forward;
-- writes DIR/<case>.out.t7 = {output, gradInput, gradParameters, trained} (or {error=...}) and the
-- trained model, as Lua saves it, to DIR/<case>.lua.t7.
require 'rnn'
local dir = assert(arg[1], 'usage: luajit bisequencer_lua_check.lua DIR')
torch.setdefaulttensortype('torch.DoubleTensor')

local function run(name)
   local case = torch.load(paths.concat(dir, name .. '.in.t7'))
   local m = case.model
   assert(torch.type(m) == 'nn.BiSequencer', torch.type(m))
   m:zeroGradParameters()
   local out = m:forward(case.input):clone()
   local gradInput = m:backward(case.input, case.gradOutput):clone()
   local _, grads = m:parameters()
   local copies = {}
   for i, g in ipairs(grads) do copies[i] = g:clone() end
   m:updateParameters(0.1)
   local trained = m:forward(case.input):clone()
   torch.save(paths.concat(dir, name .. '.lua.t7'), m)
   return {output = out, gradInput = gradInput, gradParameters = copies, trained = trained}
end

local n = 0
for file in paths.iterfiles(dir) do
   local name = file:match('^(.*)%.in%.t7$')
   if name then
      n = n + 1
      local ok, result = pcall(run, name)
      torch.save(paths.concat(dir, name .. '.out.t7'), ok and result or {error = tostring(result)})
      print(string.format('%-32s %s', name, ok and 'ran' or ('FAILED: ' .. tostring(result))))
   end
end
print(string.format('%d cases', n))
