/*
 * Users (console.md §7, admins only): list over POST /user/pageList
 * {username, role, start, length}, add/edit (/user/add, /user/update; a
 * blank password on edit keeps it), remove. Permission = the checked group
 * ids joined with ",".
 */
(function (window, $, XJ) {
  'use strict';

  var model = XJ.data || {};

  function groupTitles(permission) {
    var byID = {};
    $.each(model.groups || [], function (_, g) { byID[String(g.id)] = g.title; });
    var out = [];
    $.each(String(permission || '').split(','), function (_, id) {
      if (id) {
        out.push(Object.prototype.hasOwnProperty.call(byID, id) ? byID[id] : id);
      }
    });
    return out.join(', ');
  }

  $(function () {
    var $table = $('#xj-user-list');
    var table = $table.DataTable({
      processing: true,
      serverSide: true,
      searching: false,
      ordering: false,
      deferRender: true,
      autoWidth: false,
      language: XJ.dataTableLanguage(),
      ajax: XJ.listSource('/user/pageList', function () {
        return { username: $('#xj-filter-username').val(), role: $('#xj-filter-role').val() };
      }),
      columns: [
        XJ.textColumn('username', { width: '30%' }),
        XJ.domColumn(function (row) {
          return document.createTextNode(XJ.t(row.role === 1 ? 'user_role_admin' : 'user_role_normal'));
        }, { width: '20%' }),
        XJ.domColumn(function (row) {
          return document.createTextNode(row.role === 1 ? '' : groupTitles(row.permission));
        }, { width: '30%' }),
        XJ.domColumn(function () {
          return $('<span></span>').append(
            $('<button type="button" class="btn btn-warning btn-xs xj-edit"></button>').text(XJ.t('system_opt_edit')),
            document.createTextNode(' '),
            $('<button type="button" class="btn btn-danger btn-xs xj-delete"></button>').text(XJ.t('system_opt_del')));
        }, { width: '20%' })
      ]
    });

    function rowOf(el) {
      return table.row($(el).closest('tr')).data();
    }

    function reload(resetPaging) {
      table.ajax.reload(null, resetPaging !== false);
    }

    $('#xj-search').on('click', function () { reload(true); });
    $('#xj-filter-role').on('change', function () { reload(true); });
    $('.xj-filters input').on('keydown', function (e) {
      if (e.key === 'Enter') {
        reload(true);
      }
    });

    $table.on('click', '.xj-delete', function () {
      var row = rowOf(this);
      XJ.confirm(XJ.t('system_ok') + XJ.t('system_opt_del') + '?').done(function () {
        XJ.result(XJ.post('/user/remove', { id: row.id }),
          XJ.t('system_opt_del') + XJ.t('system_success'), XJ.t('system_opt_del') + XJ.t('system_fail'))
          .done(function () { reload(false); });
      });
    });

    var $modal = $('#xj-user-modal');
    var $form = $modal.find('form');
    var field = function (name) { return $form.find('[name=' + name + ']'); };
    var editing = false;

    function applyRole() {
      $form.find('.xj-permission').toggle($form.find('[name=role]:checked').val() !== '1');
    }
    $form.find('[name=role]').on('change', applyRole);

    $.validator.addMethod('xjUsername', function (value, element) {
      return this.optional(element) || /^[a-z][a-z0-9]*$/.test(value);
    });

    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      rules: {
        // the username is never changed on edit, so only a new one is checked
        username: {
          required: true,
          rangelength: { param: [4, 20], depends: function () { return !editing; } },
          xjUsername: { depends: function () { return !editing; } }
        },
        password: {
          required: { depends: function () { return !editing; } },
          rangelength: [4, 20]
        }
      },
      messages: {
        username: {
          required: XJ.t('system_please_input') + XJ.t('user_username'),
          rangelength: XJ.t('system_lengh_limit') + '[4-20]',
          xjUsername: XJ.t('user_username_valid')
        },
        password: {
          required: XJ.t('system_please_input') + XJ.t('user_password'),
          rangelength: XJ.t('system_lengh_limit') + '[4-20]'
        }
      },
      errorPlacement: function (error, element) {
        error.appendTo(element.closest('div'));
      },
      submitHandler: function () {
        var role = $form.find('[name=role]:checked').val();
        var permission = role === '1' ? '' : $form.find('[name=permission]:checked').map(function () {
          return this.value;
        }).get().join(',');
        var data = {
          username: field('username').val(),
          password: field('password').val(),
          role: role,
          permission: permission
        };
        var path = '/user/add';
        var okText = XJ.t('system_add_suc');
        var failText = XJ.t('system_add_fail');
        if (editing) {
          data.id = field('id').val();
          path = '/user/update';
          okText = XJ.t('system_update_suc');
          failText = XJ.t('system_update_fail');
        }
        XJ.post(path, data).done(function (answer) {
          if (XJ.ok(answer)) {
            $modal.modal('hide');
            XJ.toast(okText);
            reload(!editing);
          } else {
            XJ.alert((answer && answer.msg) || failText);
          }
        }).fail(function (message) { XJ.alert(message); });
      }
    }));

    function openForm(row) {
      editing = !!row;
      XJ.resetForm($form, validator);
      $modal.find('.xj-mode-add').toggle(!editing);
      $modal.find('.xj-mode-edit').toggle(editing);
      var $pw = field('password');
      $pw.attr('placeholder', $pw.attr(editing ? 'data-edit-placeholder' : 'data-add-placeholder'));
      field('id').val(row ? row.id : '');
      field('username').val(row ? row.username : '').prop('readonly', editing);
      $form.find('[name=role][value=' + (row && row.role === 1 ? '1' : '0') + ']').prop('checked', true);
      var allowed = String((row && row.permission) || '').split(',');
      $form.find('[name=permission]').each(function () {
        $(this).prop('checked', allowed.indexOf(this.value) >= 0);
      });
      applyRole();
      XJ.showModal($modal);
    }

    $('#xj-add').on('click', function () { openForm(null); });
    $table.on('click', '.xj-edit', function () { openForm(rowOf(this)); });
  });
})(window, window.jQuery, window.XJ);
