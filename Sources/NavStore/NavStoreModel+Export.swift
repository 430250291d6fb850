// An app imports NavStore alone: the model's values, events, rules and observer come with it.
@_exported import NavStoreModel
