"""The torch-rnn backend (jcjohnson/torch-rnn): train.lua's checkpoints,
``{model = nn.LanguageModel, opt, i, train_loss_history, ...}``, or a
LanguageModel saved alone.  It samples as sample.lua does: the model in
evaluation mode, then LanguageModel.sample (start text fed through, each
next token the argmax or drawn from softmax(scores / temperature))."""
from ..LanguageModel import LanguageModel


def _model(checkpoint):
    if isinstance(checkpoint, LanguageModel):
        return checkpoint
    if isinstance(checkpoint, dict) and isinstance(checkpoint.get("model"), LanguageModel):
        return checkpoint["model"]
    return None


def claims(checkpoint):
    return _model(checkpoint) is not None


def describe(checkpoint):
    m = _model(checkpoint)
    kind = {"lstm": "LSTM", "rnn": "vanilla RNN"}.get(m.model_type, m.model_type)
    return (f"torch-rnn LanguageModel: {m.num_layers} {kind} layers of {m.rnn_size}, {m.vocab_size} tokens, "
            f"{m.net.modules[0].weight.dtype}")


def generate(checkpoint, options):
    from . import SampleError, place
    model = _model(checkpoint)
    place(model, options)
    missing = sorted({c for c in options.start_text if c not in model.token_to_idx})
    if missing:
        raise SampleError(f"the start text holds characters the model's vocabulary of {model.vocab_size} lacks: "
                          f"{''.join(missing)!r}")
    model.evaluate()
    if options.verbose:
        options.log(f'Seeding with: "{options.start_text}"' if options.start_text
                    else "Seeding with uniform probabilities")
    return model.sample(options.length, start_text=options.start_text, sample=options.sample,
                        temperature=options.temperature, rng=options.rng, as_bytes=True)
