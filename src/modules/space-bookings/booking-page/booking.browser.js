// The hosted booking flow of a booking link, in the browser: sign in as a constituent of the team
// (an emailed code), pick a free time of the link's slot grid, name the booking, book. The link's
// token comes from the page address's fragment (#token=…), which browsers never send to a server;
// the constituent's access token stays in this page's memory.
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('booking-config').textContent);
  var token = new URLSearchParams(location.hash.slice(1)).get('token') || '';
  var session = null;
  var chosen = null;
  var $ = function (id) { return document.getElementById(id); };
  var show = function (id) {
    ['signin', 'code', 'pick', 'done'].forEach(function (s) { $(s).hidden = s !== id; });
  };
  var say = function (text) { $('message').textContent = text || ''; };
  var time = new Intl.DateTimeFormat(undefined, { timeZone: cfg.timeZone, hour: '2-digit', minute: '2-digit' });

  function call(path, body) {
    var headers = { 'content-type': 'application/json', 'x-svc-public-token': token };
    if (session) headers.authorization = 'Bearer ' + session;
    return fetch(path, { method: 'POST', headers: headers, body: JSON.stringify(body) }).then(function (r) {
      return r.json().then(function (json) {
        if (!r.ok) throw new Error((json.error && json.error.message) || 'The request failed (' + r.status + ')');
        return json.data;
      });
    });
  }
  var linkRoute = function (suffix) { return '/v1/svc-spaces/booking-links/' + encodeURIComponent(cfg.bookingLinkSimplyId) + '/' + suffix; };

  var verification = null;
  $('signin').addEventListener('submit', function (e) {
    e.preventDefault();
    say('');
    call('/v1/constituent-auth/initiate', { teamSimplyId: cfg.teamSimplyId, contactValue: $('email').value, method: 'CODE' })
      .then(function (data) { verification = data.verificationSimplyId; show('code'); say('We sent you a code.'); })
      .catch(function (err) { say(err.message); });
  });
  $('code').addEventListener('submit', function (e) {
    e.preventDefault();
    say('');
    call('/v1/constituent-auth/verify', { verificationSimplyId: verification, code: $('code-input').value })
      .then(function (data) { session = data.accessToken; $('date').value = cfg.firstDate; show('pick'); loadDay(); })
      .catch(function (err) { say(err.message); });
  });

  function loadDay() {
    say('');
    chosen = null;
    $('book').disabled = true;
    var list = $('slots');
    list.textContent = '';
    call(linkRoute('slot-grid'), { fromDate: $('date').value, toDate: $('date').value, includeSpaces: true })
      .then(function (grid) {
        var slots = grid.days.length ? grid.days[0].slots : [];
        if (!slots.length) { say('Nothing can be booked that day.'); return; }
        slots.forEach(function (slot) {
          var space = grid.spaces.find(function (s) { return s.spaceRecordSimplyId === slot.spaceRecordSimplyIds[0]; });
          var button = document.createElement('button');
          button.type = 'button';
          button.className = 'slot';
          button.textContent = time.format(new Date(slot.startsAt)) + '–' + time.format(new Date(slot.endsAt)) + ' · ' + (space ? space.displayName : '');
          button.addEventListener('click', function () {
            Array.prototype.forEach.call(list.children, function (b) { b.setAttribute('aria-pressed', 'false'); });
            button.setAttribute('aria-pressed', 'true');
            chosen = { startsAt: slot.startsAt, endsAt: slot.endsAt, spaceRecordSimplyIds: [slot.spaceRecordSimplyIds[0]] };
            $('book').disabled = false;
          });
          list.appendChild(button);
        });
      })
      .catch(function (err) { say(err.message); });
  }
  $('date').addEventListener('change', loadDay);

  $('pick').addEventListener('submit', function (e) {
    e.preventDefault();
    if (!chosen) return;
    say('');
    call(linkRoute('run'), Object.assign({ title: $('title').value }, chosen))
      .then(function (booking) {
        $('done-status').textContent = booking.status === 'CONFIRMED' ? 'Your booking is confirmed.' : 'Your booking request was received and awaits approval.';
        $('done-id').textContent = booking.bookingRecordSimplyId;
        show('done');
      })
      .catch(function (err) { say(err.message); loadDay(); });
  });

  if (!token) say('This booking page needs the link it was shared with.');
  show('signin');
})();
