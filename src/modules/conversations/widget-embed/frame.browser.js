// The chat widget's page (docs/api/conversations.md "Chat widget"): opens a visitor session (a
// signed identity from the host page, a saved session, or a new anonymous visitor), lists the
// visitor's own conversations, starts one, sends messages, and receives the team's answers live
// over graphql-ws (window.graphqlWs, served from this origin). Every message is shown with
// textContent: nothing a visitor or an agent wrote is ever parsed as markup here.
(function () {
  'use strict';
  var root = document.getElementById('widget');
  var widgetId = root.dataset.widget;
  var allowedOrigins = JSON.parse(root.dataset.origins || '[]');
  var storeKey = 'svc-chat:' + widgetId;
  var $ = function (id) { return document.getElementById(id); };
  var state = { token: null, expiresAt: 0, resume: null, conversation: null, shown: new Set(), client: null, stop: null, ready: null, renew: null };

  function setStatus(text) { $('status').textContent = text || ''; }

  function gql(query, variables, anonymous) {
    var headers = { 'content-type': 'application/json' };
    if (!anonymous && state.token) headers.authorization = 'Bearer ' + state.token;
    return fetch('/graphql', { method: 'POST', headers: headers, body: JSON.stringify({ query: query, variables: variables }) })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (body.errors && body.errors.length) {
          var error = new Error(body.errors[0].message);
          error.code = body.errors[0].extensions && body.errors[0].extensions.code;
          throw error;
        }
        return body.data;
      });
  }

  function load() { try { return JSON.parse(localStorage.getItem(storeKey) || 'null'); } catch (e) { return null; } }
  function save() { try { localStorage.setItem(storeKey, JSON.stringify({ token: state.token, expiresAt: state.expiresAt, resume: state.resume })); } catch (e) { /* storage refused: the session lasts as long as the page */ } }

  var SESSION = 'mutation Open($w: String!, $input: WidgetVisitorTokenInput) { openWidgetVisitorSession(widgetSimplyId: $w, input: $input) { token expiresAt visitorSecret visitor { visitorSimplyId } } }';

  function adopt(minted) {
    state.token = minted.token;
    state.expiresAt = Date.parse(minted.expiresAt);
    state.resume = { visitorSimplyId: minted.visitor.visitorSimplyId, visitorSecret: minted.visitorSecret };
    save();
    clearTimeout(state.renew);
    // a minute before the token runs out, the visitor comes back with their resume secret
    state.renew = setTimeout(renew, Math.max(10000, state.expiresAt - Date.now() - 60000));
  }

  function open(input) {
    return gql(SESSION, { w: widgetId, input: input }, true).then(function (d) { adopt(d.openWidgetVisitorSession); });
  }

  function renew() {
    if (!state.resume) return;
    open({ resume: state.resume }).then(function () {
      if (state.client) { state.client.dispose(); state.client = null; }
      if (state.conversation) follow(state.conversation);
    }, function () { setStatus('Your session ended: reload the page to continue.'); });
  }

  /** The session: a preview token in the URL's fragment, a signed identity, a saved one, a resume, or a new visitor. */
  function session(identity) {
    var preview = /^#token=(.+)$/.exec(location.hash);
    if (preview) { state.token = decodeURIComponent(preview[1]); state.expiresAt = Date.now() + 3600000; return Promise.resolve(); }
    if (identity) return open({ identity: identity });
    var saved = load();
    if (saved && saved.token && saved.expiresAt > Date.now() + 60000) {
      state.token = saved.token; state.expiresAt = saved.expiresAt; state.resume = saved.resume;
      return Promise.resolve();
    }
    if (saved && saved.resume) return open({ resume: saved.resume }).catch(function () { return open({}); });
    return open({});
  }

  function show(message) {
    if (state.shown.has(message.messageSimplyId)) return;
    state.shown.add(message.messageSimplyId);
    var li = document.createElement('li');
    li.className = 'author-' + String(message.author).toLowerCase();
    li.dataset.messageId = message.messageSimplyId;
    li.textContent = message.text;
    $('messages').appendChild(li);
    li.scrollIntoView({ block: 'end' });
  }

  var MESSAGE = 'messageSimplyId author text createdAt';

  function catchUp(conversationId) {
    return gql('query M($id: String!) { widgetVisitorMessages(conversationSimplyId: $id, limit: 100) { ' + MESSAGE + ' } }', { id: conversationId })
      .then(function (d) { d.widgetVisitorMessages.forEach(show); });
  }

  function follow(conversationId) {
    if (state.stop) state.stop();
    root.dataset.live = 'false';
    if (!state.client) {
      state.client = window.graphqlWs.createClient({
        url: 'wss://' + location.host + '/graphql',
        connectionParams: function () { return { authorization: 'Bearer ' + state.token }; },
        retryAttempts: 10,
        on: {
          connected: function () {
            setStatus('');
            // whatever came while the socket was (re)connecting
            setTimeout(function () {
              root.dataset.live = 'true';
              if (state.conversation) catchUp(state.conversation).catch(function () {});
            }, 300);
          },
          closed: function () { root.dataset.live = 'false'; },
        },
      });
    }
    state.stop = state.client.subscribe(
      { query: 'subscription E($id: String!) { widgetVisitorEvents(conversationSimplyId: $id) { type message { ' + MESSAGE + ' } status } }', variables: { id: conversationId } },
      {
        next: function (result) {
          var event = result.data && result.data.widgetVisitorEvents;
          if (event && event.message) show(event.message);
        },
        error: function () { setStatus('Reconnecting…'); setTimeout(function () { if (state.conversation === conversationId) follow(conversationId); }, 2000); },
        complete: function () {},
      },
    );
  }

  function enter(conversationId) {
    state.conversation = conversationId;
    root.dataset.conversation = conversationId;
    $('start').hidden = true;
    $('compose').hidden = false;
    return catchUp(conversationId).then(function () { follow(conversationId); });
  }

  function begin() {
    return gql('query C { widgetVisitorConversations { conversationSimplyId status } }', {}).then(function (d) {
      var list = d.widgetVisitorConversations;
      if (list.length > 0) return enter(list[0].conversationSimplyId);
      $('start').hidden = false;
      $('compose').hidden = true;
    });
  }

  function send(form, run) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var fields = new FormData(form);
      var content = String(fields.get('content') || '');
      if (!content.trim()) return;
      var button = form.querySelector('button');
      button.disabled = true;
      run(fields, content).then(function () { form.reset(); setStatus(''); }, function (error) { setStatus(error.message); }).then(function () { button.disabled = false; });
    });
  }

  send($('start'), function (fields, content) {
    var input = { content: content };
    if (fields.get('visitorName')) input.visitorName = String(fields.get('visitorName'));
    if (fields.get('visitorEmail')) input.visitorEmail = String(fields.get('visitorEmail'));
    return gql('mutation S($input: StartWidgetConversationInput!) { startWidgetConversation(input: $input) { conversation { conversationSimplyId } message { ' + MESSAGE + ' } } }', { input: input }).then(function (d) {
      show(d.startWidgetConversation.message);
      return enter(d.startWidgetConversation.conversation.conversationSimplyId);
    });
  });

  send($('compose'), function (_fields, content) {
    return gql('mutation P($id: String!, $input: WidgetVisitorMessageInput!) { postWidgetMessage(conversationSimplyId: $id, input: $input) { ' + MESSAGE + ' } }', { id: state.conversation, input: { content: content } }).then(function (d) {
      show(d.postWidgetMessage);
    });
  });

  function toggle(open) {
    $('panel').hidden = !open;
    $('launcher').hidden = open;
    $('launcher').setAttribute('aria-expanded', String(open));
    if (window.parent !== window) window.parent.postMessage({ type: 'svc-chat:resize', open: open, position: root.classList.contains('position-left') ? 'left' : 'right' }, '*');
    if (open && !state.started) {
      state.started = true;
      state.ready.then(begin).catch(function (error) { setStatus(error.message); });
    }
  }
  $('launcher').addEventListener('click', function () { toggle(true); });
  $('close').addEventListener('click', function () { toggle(false); });

  // the host page hands over a signed identity, if it has one; only the parent on an allowed origin may
  state.ready = new Promise(function (resolve) {
    if (window.parent === window) return resolve(null);
    var timer = setTimeout(function () { resolve(null); }, 3000);
    window.addEventListener('message', function (event) {
      if (event.source !== window.parent || allowedOrigins.indexOf(event.origin) < 0) return;
      if (!event.data || event.data.type !== 'svc-chat:init') return;
      clearTimeout(timer);
      resolve(event.data.identity || null);
    });
    window.parent.postMessage({ type: 'svc-chat:ready' }, '*');
  }).then(session).then(function () { root.dataset.session = 'open'; }, function (error) { root.dataset.session = 'failed'; setStatus(error.message); throw error; });
  state.ready.catch(function () {});
  if (location.hash) toggle(true);
})();
