local keep = require "smuggler.keep"
return function(action, store)
  keep.saved = store
  return action
end
