/*
 * The 3.4.2 console's frame: each menu entry opens its page in a tab (an
 * iframe of the same origin); a tab already open is shown again instead of
 * opened twice. The tab bar scrolls, closes the current, the other or all
 * tabs (the dashboard stays), reloads the current one and shows the pages
 * full screen. The header's theme menu switches the AdminLTE skin and
 * keeps the choice in localStorage. The password dialog and the logout
 * are common.js's (they call the 3.x endpoints on this frame).
 */
(function (window, $, XJ) {
  'use strict';

  var document = window.document;
  var SKINS = ['skin-blue', 'skin-black', 'skin-purple', 'skin-green', 'skin-red', 'skin-yellow',
    'skin-blue-light', 'skin-black-light', 'skin-purple-light', 'skin-green-light', 'skin-red-light', 'skin-yellow-light'];
  var SKIN_KEY = 'xxljob_skin';
  var HOME = '/dashboard';

  var $tabs, $frames;

  function tabFor(url) {
    return $tabs.children('.xj-tab').filter(function () { return $(this).attr('data-url') === url; });
  }

  function frameFor(url) {
    return $frames.children('iframe').filter(function () { return $(this).attr('data-url') === url; });
  }

  function activate(url) {
    $tabs.children('.xj-tab').removeClass('active');
    $frames.children('iframe').hide();
    var $tab = tabFor(url).addClass('active');
    frameFor(url).show();
    $('.xj-menu-item').removeClass('active').filter(function () {
      return $(this).find('a').attr('data-url') === url;
    }).addClass('active');
    scrollTo($tab);
  }

  // open shows the tab of url, creating it (and its iframe) the first time.
  function open(url, name) {
    if (!tabFor(url).length) {
      var $tab = $('<a href="#" class="xj-tab"></a>').attr('data-url', url).attr('title', name).text(name);
      if (url !== HOME) {
        $tab.append(' ').append($('<i class="fa fa-times-circle xj-tab-close"></i>'));
      }
      $tabs.append($tab);
      $('<iframe class="xj-tab-frame" frameborder="0"></iframe>').attr('data-url', url)
        .attr('src', XJ.url(url)).appendTo($frames);
    }
    activate(url);
  }

  function close(url) {
    if (url === HOME) {
      return;
    }
    var $tab = tabFor(url);
    var wasActive = $tab.hasClass('active');
    var $next = $tab.prev('.xj-tab').length ? $tab.prev('.xj-tab') : $tab.next('.xj-tab');
    $tab.remove();
    frameFor(url).remove();
    if (wasActive && $next.length) {
      activate($next.attr('data-url'));
    }
  }

  function current() {
    return $tabs.children('.xj-tab.active').attr('data-url');
  }

  function scrollTo($tab) {
    if (!$tab.length) {
      return;
    }
    var $nav = $tabs.parent();
    var left = $tab.position().left + $nav.scrollLeft();
    if (left < $nav.scrollLeft() || left + $tab.outerWidth() > $nav.scrollLeft() + $nav.width()) {
      $nav.scrollLeft(Math.max(0, left - 40));
    }
  }

  function applySkin(skin) {
    var $body = $('body');
    $.each(SKINS, function (_, s) { $body.removeClass(s); });
    $body.addClass(skin);
  }

  function skins() {
    var saved = null;
    try {
      saved = window.localStorage.getItem(SKIN_KEY);
    } catch (e) { /* storage off: the default skin */ }
    if (saved && SKINS.indexOf(saved) >= 0) {
      applySkin(saved);
    }
    var $list = $('#xj-skin-modal .xj-skins');
    $.each(SKINS, function (_, s) {
      $('<li></li>').append($('<a href="#" class="xj-skin"></a>').attr('data-skin', s).text(s.replace('skin-', '')))
        .appendTo($list);
    });
    $(document).on('click', '.xj-change-skin', function (e) {
      e.preventDefault();
      XJ.showModal($('#xj-skin-modal'), true);
    });
    $list.on('click', '.xj-skin', function (e) {
      e.preventDefault();
      var skin = $(this).attr('data-skin');
      applySkin(skin);
      try {
        window.localStorage.setItem(SKIN_KEY, skin);
      } catch (err) { /* not kept */ }
      $('#xj-skin-modal').modal('hide');
    });
  }

  function fullscreen() {
    var el = document.querySelector('.xj-tab-frames');
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else if (el && el.requestFullscreen) {
      el.requestFullscreen();
    }
  }

  $(function () {
    $tabs = $('.xj-tabs-inner');
    $frames = $('.xj-tab-frames');
    skins();
    $(document).on('click', '.xj-open-tab', function (e) {
      e.preventDefault();
      open($(this).attr('data-url'), $(this).text().trim());
    });
    $tabs.on('click', '.xj-tab', function (e) {
      e.preventDefault();
      if ($(e.target).hasClass('xj-tab-close')) {
        close($(this).attr('data-url'));
        return;
      }
      activate($(this).attr('data-url'));
    });
    $('.xj-tab-close-current').on('click', function (e) {
      e.preventDefault();
      close(current());
    });
    $('.xj-tab-close-other').on('click', function (e) {
      e.preventDefault();
      var keep = current();
      $tabs.children('.xj-tab').each(function () {
        var url = $(this).attr('data-url');
        if (url !== keep) {
          close(url);
        }
      });
    });
    $('.xj-tab-close-all').on('click', function (e) {
      e.preventDefault();
      $tabs.children('.xj-tab').each(function () { close($(this).attr('data-url')); });
      activate(HOME);
    });
    $('.xj-tab-reload').on('click', function (e) {
      e.preventDefault();
      var f = frameFor(current()).get(0);
      if (f && f.contentWindow) {
        f.contentWindow.location.reload();
      }
    });
    $('.xj-tab-fullscreen').on('click', function (e) {
      e.preventDefault();
      fullscreen();
    });
    $('.xj-tab-left, .xj-tab-right').on('click', function () {
      var $nav = $tabs.parent();
      $nav.scrollLeft($nav.scrollLeft() + ($(this).hasClass('xj-tab-left') ? -200 : 200));
    });
    var $home = $('.xj-open-tab').filter(function () { return $(this).attr('data-url') === HOME; });
    open(HOME, $home.text().trim() || XJ.t('job_dashboard_name'));
  });

  XJ.openTab = open;
})(window, window.jQuery, window.XJ);
