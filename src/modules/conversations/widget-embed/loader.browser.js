// The chat widget's loader (docs/api/conversations.md "Embedding"): put
//   <script src="https://<platform>/widget/v1/loader.js?w=cwg-XXXX-XXXX-XXXX" async></script>
// on a page of one of the widget's allowed origins. It adds one iframe (the widget's own page on
// the platform's origin, where everything else happens) and resizes it when the chat opens or
// closes. A verified visitor's identity, signed by the team's server, is set before it loads:
//   window.SvcChat = { identity: { visitorId, email, name, timestamp, signature } };
// and handed to the frame by postMessage addressed to the platform's origin only.
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) return;
  var src = new URL(script.src);
  var widget = src.searchParams.get('w') || '';
  if (!/^cwg-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(widget)) return;
  var origin = src.origin;
  if (document.getElementById('svc-chat-' + widget)) return;

  var frame = document.createElement('iframe');
  frame.id = 'svc-chat-' + widget;
  frame.title = 'Chat';
  frame.src = origin + '/widget/v1/frame/' + widget;
  var closed = 'position:fixed;bottom:16px;right:16px;width:120px;height:64px;border:0;z-index:2147483000;background:transparent;color-scheme:normal;';
  var opened = 'position:fixed;bottom:16px;right:16px;width:380px;height:560px;max-width:calc(100vw - 32px);max-height:calc(100vh - 32px);border:0;z-index:2147483000;background:transparent;color-scheme:normal;';
  frame.style.cssText = closed;

  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var data = event.data || {};
    if (data.type === 'svc-chat:ready') {
      var config = window.SvcChat || {};
      frame.contentWindow.postMessage({ type: 'svc-chat:init', identity: config.identity || null }, origin);
    } else if (data.type === 'svc-chat:resize') {
      var style = data.open ? opened : closed;
      frame.style.cssText = data.position === 'left' ? style.replace('right:16px', 'left:16px') : style;
    }
  });

  function mount() {
    document.body.appendChild(frame);
  }
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})();
