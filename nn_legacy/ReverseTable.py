from .ReverseSequence import ReverseSequence


class ReverseTable(ReverseSequence):
    """dpnn's ReverseTable (the rnn package's BiSequencer put it around its
    backward Sequencer): the entries of a table (list) in reverse order, and
    gradInput gradOutput's entries reversed.  (An array ``[seqlen, ...]`` is
    reversed along its first dim, as ReverseSequence, which torch/rnn made
    of it in 2017.)"""

    _t7_tables = ("output", "gradInput")   # save_lua: dpnn's constructor made these tables, and its forward
                                            # reads them as tables
