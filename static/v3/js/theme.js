/*
 * The 3.4.2 console's theme: one of AdminLTE's twelve skins on <body>,
 * kept in localStorage under the key the 3.4.2 admin uses (admin_skin), so
 * a theme chosen on a Java admin of the same host carries over, and the
 * other way round. The frame offers the choice (frame.js); the pages that
 * open in windows of their own (GLUE IDE, rolling log) wear it too.
 *
 * XJ.theme.skins, .current(), .apply(skin), .choose(skin)
 */
(function (window, $, XJ) {
  'use strict';

  var KEY = 'admin_skin';
  var SKINS = ['skin-blue', 'skin-black', 'skin-purple', 'skin-green', 'skin-red', 'skin-yellow',
    'skin-blue-light', 'skin-black-light', 'skin-purple-light', 'skin-green-light', 'skin-red-light', 'skin-yellow-light'];

  function stored() {
    try {
      return window.localStorage.getItem(KEY);
    } catch (e) {
      return null; // storage off: the default skin
    }
  }

  function apply(skin) {
    var $body = $('body');
    $.each(SKINS, function (_, s) { $body.removeClass(s); });
    $body.addClass(skin);
  }

  XJ.theme = {
    skins: SKINS,
    current: function () {
      var s = stored();
      return s && SKINS.indexOf(s) >= 0 ? s : 'skin-blue';
    },
    apply: apply,
    // choose applies a skin and keeps it
    choose: function (skin) {
      if (SKINS.indexOf(skin) < 0) {
        return;
      }
      apply(skin);
      try {
        window.localStorage.setItem(KEY, skin);
      } catch (e) { /* not kept */ }
    }
  };

  // the pages with a header of their own (the frame, the IDE, the rolling
  // log) start in the kept skin
  $(function () {
    if ($('body').is('.xj-frame, .layout-top-nav')) {
      apply(XJ.theme.current());
    }
  });
})(window, window.jQuery, window.XJ);
