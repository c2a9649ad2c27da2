#include "app/capdeskctl/ctlcompletion.h"

#include "app/capdeskctl/ctlcommandtable.h"
#include "dispatch/core/productversion.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace {

QStringList dashedNames(const QList<QCommandLineOption> &options)
{
    QStringList names;
    for (const QCommandLineOption &option : options) {
        for (const QString &name : option.names())
            names.append((name.size() == 1 ? u"-"_s : u"--"_s) + name);
    }
    return names;
}

bool takesFile(const QCommandLineOption &option)
{
    return option.valueName().contains(u"FILE"_s) || option.valueName() == "PEM"_L1;
}

// "json|sql" → {json, sql}: a value that is one of a few lowercase words.
QStringList wordsOf(const QCommandLineOption &option)
{
    static const QRegularExpression kWords(u"^[a-z]+(\\|[a-z]+)+$"_s);
    return kWords.match(option.valueName()).hasMatch() ? option.valueName().split(u'|') : QStringList();
}

QString spaced(const QStringList &words)
{
    return u" "_s + words.join(u' ') + u" "_s;
}

struct OptionTable
{
    QStringList valued;
    QStringList files;
    QString words; // case arms: --format) words='json sql' ;;
};

OptionTable optionTable()
{
    OptionTable table;
    QStringList seen;
    for (const QCommandLineOption &option : CtlCommandTable::allOptions()) {
        if (option.valueName().isEmpty())
            continue;
        const QStringList names = dashedNames({option});
        if (seen.contains(names.constFirst()))
            continue;
        seen.append(names);
        table.valued.append(names);
        if (takesFile(option))
            table.files.append(names);
        if (const QStringList words = wordsOf(option); !words.isEmpty())
            table.words += u"        "_s + names.join(u'|') + u") words='"_s + words.join(u' ') + u"' ;;\n"_s;
    }
    return table;
}

} // namespace

QString CtlCompletion::bash()
{
    QStringList topLevel;
    QStringList groups;
    QString members; // case arms: token) words='create list revoke' ;;
    QString commandOptions;
    QStringList fileArguments;
    for (const CtlCommand &command : CtlCommandTable::commands()) {
        const QString group = command.group();
        if (!topLevel.contains(group))
            topLevel.append(group);
        if (group != command.name && !groups.contains(group)) {
            groups.append(group);
            QStringList subs;
            for (const CtlCommand *member : CtlCommandTable::group(group))
                subs.append(member->name.section(u' ', 1));
            members += u"            "_s + group + u") words='"_s + subs.join(u' ') + u"' ;;\n"_s;
        }
        if (command.arguments.section(u' ', 0, 0) == "FILE"_L1)
            fileArguments.append(command.name);
        commandOptions += u"    \""_s + command.name + u"\") options='"_s
                          + dashedNames(command.options).join(u' ') + u"' ;;\n"_s;
    }
    const OptionTable options = optionTable();
    return u"# bash completion for capdeskctl "_s + ProductVersion::number()
           + u", written from its command table by `capdeskctl completion bash`.\n"
             "_capdeskctl()\n"
             "{\n"
             "    local line_words=() cword cur prev\n"
             "    # Bash splits COMP_WORDS at = and :, so --db=FILE or a server's URL comes apart;\n"
             "    # the line up to the cursor, split at blanks only, keeps them whole.\n"
             "    if [[ -n ${COMP_LINE-} ]]; then\n"
             "        local line=${COMP_LINE:0:COMP_POINT}\n"
             "        read -ra line_words <<<\"$line\"\n"
             "        [[ $line == *[[:blank:]] ]] && line_words+=('')\n"
             "    else\n"
             "        line_words=(\"${COMP_WORDS[@]}\")\n"
             "    fi\n"
             "    cword=$((${#line_words[@]} - 1))\n"
             "    cur=${line_words[cword]} prev=${line_words[cword-1]}\n"
             "    # --format=js: readline replaces only what follows the =.\n"
             "    if [[ $cur == --*=* ]]; then\n"
             "        prev=${cur%%=*} cur=${cur#*=}\n"
             "    fi\n"
             "    local valued='"_s
           + spaced(options.valued) + u"'\n    local files='"_s + spaced(options.files)
           + u"'\n    local groups='"_s + spaced(groups) + u"'\n    local common='"_s
           + dashedNames(CtlCommandTable::commonOptions()).join(u' ')
           + u"'\n"
             "    local i word command='' sub='' words='' options=''\n"
             "    COMPREPLY=()\n"
             "    # The command is the first word that is neither an option nor an option's value;\n"
             "    # a group's member (token create) is the word after it.\n"
             "    for ((i = 1; i < cword; i++)); do\n"
             "        word=${line_words[i]}\n"
             "        case $word in\n"
             "        -*=*) ;;\n"
             "        -*) [[ $valued == *\" $word \"* ]] && ((i++)) ;;\n"
             "        *) if [[ -z $command ]]; then command=$word; elif [[ -z $sub ]]; then sub=$word; fi "
             ";;\n"
             "        esac\n"
             "    done\n"
             "    if [[ $valued == *\" $prev \"* ]]; then\n"
             "        case $prev in\n"_s
           + options.words
           + u"        esac\n"
             "        if [[ -n $words ]]; then\n"
             "            mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
             "        elif [[ $files == *\" $prev \"* ]]; then\n"
             "            compopt -o filenames 2>/dev/null\n"
             "            mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
             "        fi\n"
             "        return 0\n"
             "    fi\n"
             "    if [[ -z $command ]]; then\n"
             "        [[ $cur == -* ]] && words=$common || words='"_s
           + topLevel.join(u' ')
           + u"'\n"
             "        mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
             "        return 0\n"
             "    fi\n"
             "    if [[ $groups == *\" $command \"* ]]; then\n"
             "        if [[ -z $sub && $cur != -* ]]; then\n"
             "            case $command in\n"_s
           + members
           + u"            esac\n"
             "            mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
             "            return 0\n"
             "        fi\n"
             "        command=\"$command $sub\"\n"
             "    fi\n"
             "    case $command in\n"_s
           + commandOptions
           + u"    esac\n"
             "    if [[ $cur == -* ]]; then\n"
             "        mapfile -t COMPREPLY < <(compgen -W \"$options $common\" -- \"$cur\")\n"
             "    elif [[ $command == help ]]; then\n"
             "        mapfile -t COMPREPLY < <(compgen -W '"_s
           + topLevel.join(u' ')
           + u"' -- \"$cur\")\n"
             "    elif [[ $command == completion ]]; then\n"
             "        mapfile -t COMPREPLY < <(compgen -W 'bash' -- \"$cur\")\n"
             "    elif [[ '"_s
           + spaced(fileArguments)
           + u"' == *\" $command \"* ]]; then\n"
             "        compopt -o filenames 2>/dev/null\n"
             "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
             "    fi\n"
             "    return 0\n"
             "}\n"
             "complete -F _capdeskctl capdeskctl\n"_s;
}
