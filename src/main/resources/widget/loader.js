/* docs-assistant: the hosted widget's loader. Defines window.MintlifyAssistant (Mintlify's browser API) at once and
   loads the runtime, from a versioned URL, on init(); every other method waits for init(). Works as a classic or a
   module script and never blocks the page. */
(() => {
  "use strict";
  if (window.MintlifyAssistant) return;
  // the loader's own origin: the endpoint when init() names none
  const own = (document.currentScript && document.currentScript.src)
    || Array.from(document.scripts, (s) => s.src).find((src) => /\/widget\.js(?:[?#]|$)/.test(src)) || "";
  let mounted = null; // Promise of the mounted widget
  let register = null;
  const runtime = (config) => new Promise((resolve, reject) => {
    register = resolve;
    const script = document.createElement("script");
    script.src = config.endpoint + "__RUNTIME__";
    script.async = true;
    if (config.nonce) script.nonce = config.nonce;
    script.onerror = () => reject(Object.assign(new Error("The widget could not be loaded"),
      { code: "load_failed", retryable: true }));
    document.head.appendChild(script);
  });
  const ready = () => mounted || Promise.reject(new Error("Call MintlifyAssistant.init() first"));
  const api = {
    init(config) {
      if (!config || typeof config.id !== "string" || !config.id) {
        return Promise.reject(new Error("init() needs the widget's id"));
      }
      const endpoint = String(config.endpoint || (own ? new URL(own).origin : "")).replace(/\/+$/, "");
      if (mounted) {
        return mounted.then((widget) => widget.reinit(Object.assign({}, config, { endpoint })));
      }
      const settings = Object.assign({}, config, { endpoint });
      mounted = runtime(settings).then((create) => create(settings, () => { mounted = null; }));
      mounted.catch(() => { mounted = null; });
      return mounted.then(() => undefined);
    },
    open: (options) => ready().then((w) => w.open(options)),
    close: () => ready().then((w) => w.close()),
    ask: (question, options) => ready().then((w) => w.ask(question, options)),
    update: (patch) => ready().then((w) => w.update(patch)),
    reset: () => ready().then((w) => w.reset()),
    destroy: () => (mounted ? mounted.then((w) => w.destroy()) : Promise.resolve()),
    // the runtime hands its factory over here once it ran
    __register(create) { if (register) register(create); register = null; },
  };
  Object.defineProperty(window, "MintlifyAssistant", { value: Object.freeze(api), configurable: true });
})();
