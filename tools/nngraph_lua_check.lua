-- Run in a real Lua Torch7 the nn.gModule files nn_legacy.save_lua wrote (driven by tools/nngraph_lua_check.py).
-- usage: luajit nngraph_lua_check.lua DIR
-- Every DIR/<case>.in.t7 is a table {model=<nn.gModule, or a module holding one>, input=..., gradOutput=...};
-- this loads it with torch.load, runs zeroGradParameters, forward and backward (twice), and writes DIR/<case>.out.t7 =
-- {output=..., gradInput=..., gradParameters={...} (model:parameters()'s gradients, in its order)}, or
-- {error=<message>} when loading or running failed.
require 'torch'
require 'nn'
require 'nngraph'
pcall(require, 'rnn')   -- (for the rnn package's FastLSTM, whose step is a gModule)
local dir = assert(arg[1], 'usage: luajit nngraph_lua_check.lua DIR')
torch.setdefaulttensortype('torch.DoubleTensor')

local function run(path)
   local case = torch.load(path)
   local model = case.model
   local output, gradInput
   for _ = 1, 2 do   -- (twice: the second pass runs on the buffers and node tables the first one left)
      model:zeroGradParameters()
      output = model:forward(case.input)
      gradInput = model:backward(case.input, case.gradOutput)
   end
   local _, grads = model:parameters()
   return {output = output, gradInput = gradInput, gradParameters = grads or {}}
end

local n, failed = 0, 0
for file in paths.iterfiles(dir) do
   local name = file:match('^(.*)%.in%.t7$')
   if name then
      n = n + 1
      local ok, result = pcall(run, paths.concat(dir, file))
      if not ok then
         failed = failed + 1
         result = {error = tostring(result)}
      end
      torch.save(paths.concat(dir, name .. '.out.t7'), result)
      print(string.format('%-40s %s', name, ok and 'ran' or ('FAILED: ' .. tostring(result.error))))
   end
end
print(string.format('%d cases, %d failed', n, failed))
