-- Build small models in a real Lua Torch7, run forward and backward on seeded inputs, and save
-- {model=, input=, output=, gradOutput=, gradInput=, evaluate=} per case, float and double, for
-- tests/test_torch7_built.py (fixtures in tests/data/t7/torch7_built; see tests/data/t7/README.md).
-- usage: luajit torch7_fixtures.lua OUTDIR nn|torch_rnn|er_rnn
--   nn: torch/nn and nngraph; torch_rnn / er_rnn: that rnn package (its luarocks tree on LUA_PATH/LUA_CPATH).
-- nn and nngraph models are saved after their forward and backward (their buffers filled, as a trained
-- model is; nngraph graphs after clearState(), as char-rnn's checkpoints were, to keep the files small);
-- recurrent ones before (a fresh sequence: the step state is not part of what is checked).
-- doubleOnly: the larger graphs and rnn trees in double only, to keep the folder under 400 KB.
require 'torch'
require 'nn'
local outdir, group = assert(arg[1]), assert(arg[2])
if group == 'nn' then require 'nngraph' else require 'rnn' end
torch.setdefaulttensortype('torch.DoubleTensor')

local cases = {}
local function case(name, build, input, opts) cases[#cases + 1] = {name, build, input, opts or {}} end
local function U(...) return torch.Tensor(...):uniform(-1, 1) end
local function steps(T, ...) local t = {} for i = 1, T do t[i] = U(...) end return t end

if group == 'nn' then
   case('Linear', function() return nn.Linear(4, 3) end, function() return U(2, 4) end)
   case('SpatialConvolution', function() return nn.SpatialConvolution(2, 3, 3, 2, 2, 1, 1, 0) end,
        function() return U(2, 2, 5, 4) end)
   case('SpatialFullConvolution', function() return nn.SpatialFullConvolution(2, 2, 3, 3, 2, 2, 1, 1, 1, 0) end,
        function() return U(1, 2, 3, 3) end)
   case('VolumetricConvolution', function() return nn.VolumetricConvolution(2, 2, 2, 2, 2) end,
        function() return U(1, 2, 3, 3, 3) end)
   case('TemporalConvolution', function() return nn.TemporalConvolution(3, 2, 2, 1) end, function() return U(2, 4, 3) end)
   case('SpatialMaxPooling', function() return nn.SpatialMaxPooling(2, 2, 2, 2, 1, 1):ceil() end,
        function() return U(2, 2, 5, 4) end)
   case('SpatialAveragePooling', function() return nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1) end,
        function() return U(1, 2, 5, 4) end)
   case('SpatialBatchNormalization_eval', function()
           local m = nn.SpatialBatchNormalization(3)
           for _ = 1, 3 do m:forward(U(4, 3, 2, 2) * 2 + 0.5) end
           return m
        end, function() return U(2, 3, 2, 2) end, {evaluate = true})
   case('BatchNormalization_train', function() return nn.BatchNormalization(3) end, function() return U(4, 3) end)
   case('MLP', function()
           return nn.Sequential():add(nn.Linear(4, 5)):add(nn.Tanh()):add(nn.Linear(5, 5)):add(nn.ReLU())
              :add(nn.Linear(5, 3)):add(nn.LogSoftMax())
        end, function() return U(3, 4) end)
   case('Activations', function()
           return nn.Sequential():add(nn.PReLU(4)):add(nn.ELU(0.5)):add(nn.Sigmoid()):add(nn.SoftPlus())
              :add(nn.HardTanh(-0.5, 0.9)):add(nn.SoftMax())
        end, function() return U(2, 4) * 2 end)
   case('Concat', function()
           return nn.Concat(2):add(nn.SpatialConvolution(2, 1, 1, 1)):add(nn.SpatialConvolution(2, 2, 3, 3, 1, 1, 1, 1))
        end, function() return U(1, 2, 3, 3) end)
   case('ConcatTable_CAddTable', function()
           return nn.Sequential():add(nn.ConcatTable():add(nn.Linear(3, 2)):add(nn.Linear(3, 2)))
              :add(nn.CAddTable())
        end, function() return U(2, 3) end)
   case('ParallelTable_JoinTable', function()
           return nn.Sequential():add(nn.ParallelTable():add(nn.Linear(2, 3)):add(nn.Tanh())):add(nn.JoinTable(2))
        end, function() return {U(2, 2), U(2, 4)} end)
   case('Max_Sum_Mean', function() return nn.ConcatTable():add(nn.Max(2)):add(nn.Sum(3)):add(nn.Mean(1)) end,
        function() return U(2, 3, 4) end)
   case('LookupTable', function() return nn.LookupTable(6, 3) end,
        function() return torch.LongTensor({{1, 4, 6}, {2, 2, 5}}) end, {noGradInput = true})
   case('CMul_Normalize_Euclidean', function()
           return nn.Sequential():add(nn.CMul(4)):add(nn.Normalize(2)):add(nn.Euclidean(4, 2))
        end, function() return U(3, 4) end)
   case('View_Transpose_Narrow', function()
           return nn.Sequential():add(nn.Narrow(2, 2, 2)):add(nn.Transpose({1, 3})):add(nn.View(-1):setNumInputDims(2))
        end, function() return U(2, 3, 4) end)
   -- nngraph: a char-rnn LSTM step (x, prev_c, prev_h -> next_c, next_h)
   case('nngraph_lstm_step', function()
           local x, prev_c, prev_h = nn.Identity()(), nn.Identity()(), nn.Identity()()
           local i2h = nn.Linear(3, 4 * 4)(x)
           local h2h = nn.Linear(4, 4 * 4)(prev_h)
           local all = nn.CAddTable()({i2h, h2h})
           local r = nn.Reshape(4, 4)(all)
           local n1, n2, n3, n4 = nn.SplitTable(2)(r):split(4)
           local in_gate, forget_gate, out_gate = nn.Sigmoid()(n1), nn.Sigmoid()(n2), nn.Sigmoid()(n3)
           local in_transform = nn.Tanh()(n4)
           local next_c = nn.CAddTable()({nn.CMulTable()({forget_gate, prev_c}), nn.CMulTable()({in_gate, in_transform})})
           local next_h = nn.CMulTable()({out_gate, nn.Tanh()(next_c)})
           return nn.gModule({x, prev_c, prev_h}, {next_c, next_h})
        end, function() return {U(2, 3), U(2, 4), U(2, 4)} end, {clear = true, doubleOnly = true})
   -- nngraph: a residual block (skip connection)
   case('nngraph_skip', function()
           local x = nn.Identity()()
           local h = nn.ReLU()(nn.SpatialConvolution(2, 2, 3, 3, 1, 1, 1, 1)(x))
           local y = nn.SpatialConvolution(2, 2, 3, 3, 1, 1, 1, 1)(h)
           return nn.gModule({x}, {nn.ReLU()(nn.CAddTable()({y, x}))})
        end, function() return U(1, 2, 3, 3) end, {clear = true})
   -- nngraph: one input, a table of outputs, a node used twice
   case('nngraph_table_outputs', function()
           local x = nn.Identity()()
           local h = nn.Tanh()(nn.Linear(3, 4)(x))
           local a = nn.Linear(4, 2)(h)
           local b = nn.SoftMax()(nn.Linear(4, 3)(h))
           return nn.gModule({x}, {a, b, nn.Mul()(h)})
        end, function() return U(2, 3) end, {clear = true, doubleOnly = true})
elseif group == 'torch_rnn' then
   case('RecLSTM_Sequencer', function() return nn.Sequencer(nn.RecLSTM(3, 4)) end, function() return U(3, 2, 3) end,
        {recurrent = true})
   case('SeqLSTM', function() return nn.SeqLSTM(3, 4) end, function() return U(3, 2, 3) end, {recurrent = true})
   case('SeqGRU', function() return nn.SeqGRU(3, 4) end, function() return U(3, 2, 3) end, {recurrent = true})
   case('Sequencer_RecGRU_Linear', function()
           return nn.Sequencer(nn.Sequential():add(nn.RecGRU(3, 4)):add(nn.Linear(4, 2)))
        end, function() return steps(3, 2, 3) end, {recurrent = true})
   -- torch/rnn's BiSequencer (whole sequences merged, CAddTable): not Element-Research's of the same name
   case('BiSequencer_SeqGRU', function() return nn.BiSequencer(nn.SeqGRU(3, 2)) end, function() return U(3, 2, 3) end,
        {recurrent = true, doubleOnly = true})
elseif group == 'er_rnn' then
   case('FastLSTM_Sequencer', function() return nn.Sequencer(nn.FastLSTM(3, 4)) end,
        function() return steps(3, 2, 3) end, {recurrent = true})
   case('GRU_Sequencer', function() return nn.Sequencer(nn.GRU(3, 4)) end, function() return steps(3, 2, 3) end,
        {recurrent = true, doubleOnly = true})
   case('SeqLSTM', function() return nn.SeqLSTM(3, 4) end, function() return U(3, 2, 3) end, {recurrent = true})
   case('BiSequencer_FastLSTM', function() return nn.BiSequencer(nn.FastLSTM(3, 2)) end,
        function() return steps(3, 2, 3) end, {recurrent = true, doubleOnly = true})
   case('Recursor_Sequential_FastLSTM', function()
           return nn.Sequencer(nn.Recursor(nn.Sequential():add(nn.FastLSTM(3, 4)):add(nn.Linear(4, 2))))
        end, function() return steps(3, 2, 3) end, {recurrent = true, doubleOnly = true})
end

local function like(value, fn)   -- a gradOutput shaped like value
   if torch.isTensor(value) then return fn(value) end
   local t = {} for k, v in pairs(value) do t[k] = like(v, fn) end return t
end
local function cast(value, ttype)
   if torch.isTensor(value) then
      return torch.type(value) == 'torch.LongTensor' and value or value:type(ttype)
   end
   local t = {} for k, v in pairs(value) do t[k] = cast(v, ttype) end return t
end

for _, ttype in ipairs({'torch.DoubleTensor', 'torch.FloatTensor'}) do
   for i, c in ipairs(cases) do
      local name, build, makeInput, opts = c[1], c[2], c[3], c[4]
      if not (opts.doubleOnly and ttype == 'torch.FloatTensor') then
      torch.manualSeed(1000 + i)
      local model = build():type(ttype)
      local input = cast(makeInput(), ttype)
      if opts.evaluate then model:evaluate() else model:training() end
      local saved = opts.recurrent and model:clone() or nil
      local output = model:forward(input)
      output = like(output, function(t) return t:clone() end)
      local gradOutput = like(output, function(t) return t:clone():uniform(-1, 1) end)
      local gradInput = model:backward(input, gradOutput)
      gradInput = like(gradInput, function(t) return t:clone() end)
      if opts.noGradInput then gradInput = nil end
      local suffix = ttype == 'torch.FloatTensor' and 'float' or 'double'
      local file = paths.concat(outdir, string.format('%s_%s_%s.t7', group, name, suffix))
      if opts.clear then model:clearState() end
      torch.save(file, {model = saved or model, input = input, output = output, gradOutput = gradOutput,
                        gradInput = gradInput, evaluate = opts.evaluate or false})
      print(file)
      end
   end
end
